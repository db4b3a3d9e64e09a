"""Hand-written reference engines: the peers rulecraft's generated engines are compared with."""
