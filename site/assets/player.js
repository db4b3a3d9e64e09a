/* rulecraft rulebook player: animates the worked examples computed by the engine at build time.
 *
 * Every `.rc-player` holds its frames as JSON in `data-rc-player` (Material's instant navigation
 * re-creates <script> tags, so data lives in attributes) and an SVG board whose spaces are
 * `g.rc-space[data-space]`. The page draws the pieces and markers where the first frame puts them
 * (so it shows without JavaScript); every frame carries their places, computed at build time, and
 * the position as text for screen readers. Legal options of the next decision are highlighted.
 * Controls: buttons, or ← → (step), space (play/pause) and Esc (back to the start) while the
 * player itself has the focus. Playing does not start when the system asks for reduced motion.
 *
 * Also makes Material's language selector lead to the same page and place (its anchor) in the other language, and keeps
 * it right under instant navigation (which replaces the page but not the header, so the links
 * would otherwise stay those of the first page seen). A language switch always loads the page
 * in full, so that its header, search language and `lang` change with it.
 */
(function () {
  "use strict";

  var PLAY_DELAY = 1800;
  var UNIT = 10;
  var REDUCED_MOTION = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function reducedMotion() {
    return Boolean(REDUCED_MOTION && REDUCED_MOTION.matches);
  }

  /* Board: moves the pieces and markers the page drew for the first frame, and highlights. */
  function Board(svg, data) {
    this.svg = svg;
    this.data = data;
    this.rects = {};
    svg.querySelectorAll("g.rc-space[data-space]").forEach(function (group) {
      this.rects[group.getAttribute("data-space")] = {group: group};
    }, this);
    this.pieces = Array.prototype.slice.call(svg.querySelectorAll("g.rc-pieces > g.rc-piece"));
    this.markers = Array.prototype.slice.call(svg.querySelectorAll("g.rc-markers > g.rc-marker"));
    this.across = Array.prototype.slice.call(svg.querySelectorAll("g.rc-across > line"));
    this.paths = Array.prototype.slice.call(svg.querySelectorAll("g.rc-paths > g.rc-path"));
  }

  Board.prototype.spaceName = function (index) {
    return index >= 0 ? this.data.spaces[index] : null;
  };

  /* Puts an element at a place computed at build time ([x, y, …]), or hides it (no place). */
  function place(group, name, spot) {
    group.setAttribute("data-space", name || "");
    group.style.display = spot ? "" : "none";
    if (spot) group.setAttribute("transform", "translate(" + spot[0] + "," + spot[1] + ")");
  }

  Board.prototype.show = function (frame) {
    frame.at.forEach(function (space, piece) {
      var group = this.pieces[piece];
      var spot = frame.places[piece];
      place(group, this.spaceName(space), spot);
      if (spot) {
        /* shapes are drawn at radius UNIT (rulecraft.site.position) and scaled to the place's */
        group.querySelector(".rc-piece-shape").setAttribute("transform", "scale(" + spot[2] / UNIT + ")");
        group.classList.toggle("rc-small", spot[3]);
      }
    }, this);
    (frame.markers || []).forEach(function (space, index) {
      var name = this.spaceName(space);
      var spot = frame.spots[index];
      place(this.markers[index], name, spot);
      if (spot) this.markers[index].querySelector("circle").setAttribute("r", String(spot[2]));
      Object.keys(this.rects).forEach(function (key) {
        this.rects[key].group.classList.toggle("rc-has-" + this.data.markers[index].field, key === name);
      }, this);
    }, this);
    (frame.across || []).forEach(function (segment, index) {
      var line = this.across[index];
      line.style.display = segment ? "" : "none";
      if (segment) {
        line.setAttribute("x1", String(segment[0]));
        line.setAttribute("x2", String(segment[1]));
        line.setAttribute("y1", String(segment[2]));
        line.setAttribute("y2", String(segment[2]));
      }
    }, this);
    (frame.paths || []).forEach(function (path, index) {
      if (this.paths[index]) drawPath(this.paths[index], path, this.data.path_marks);
    }, this);
    this.flag(frame);
    this.highlight(frame);
  };

  var SVG_NS = "http://www.w3.org/2000/svg";

  /* Draws a marker's path computed at build time (rulecraft.site.position.path_of): the polyline
   * through its spaces' centres, a dot (radii: data.path_marks) at each bend and a ring at each team-mate who carried it on;
   * hidden while there is no path. */
  function drawPath(group, path, radii) {
    group.style.display = path ? "" : "none";
    group.setAttribute("data-spaces", path ? path.spaces.join(" ") : "");
    group.querySelector("polyline").setAttribute("points", path ? path.points.map(function (point) {
      return point[0] + "," + point[1];
    }).join(" ") : "");
    var marks = group.querySelector(".rc-path-marks");
    marks.textContent = "";
    if (!path) return;
    [["rc-path-bend", path.bends, radii.bend], ["rc-path-touch", path.touches, radii.touch]].forEach(function (kind) {
      kind[1].forEach(function (point) {
        var circle = document.createElementNS(SVG_NS, "circle");
        circle.setAttribute("class", kind[0]);
        circle.setAttribute("r", String(kind[2]));
        circle.setAttribute("cx", String(point[0]));
        circle.setAttribute("cy", String(point[1]));
        marks.appendChild(circle);
      });
    });
  }

  /* Per-piece flags of the frame (knocked down, in a pile): a class per flag, and the flags'
   * labels after the piece's name in its title (as rulecraft.site.position.piece_label). */
  Board.prototype.flag = function (frame) {
    var flags = this.data.flags || [];
    this.pieces.forEach(function (group, index) {
      var labels = [];
      flags.forEach(function (flag, which) {
        var on = ((frame.flags || [])[which] || []).indexOf(index) >= 0;
        group.classList.toggle("rc-flag-" + flag.field, on);
        if (on) labels.push(flag.label);
      });
      group.classList.toggle("rc-flagged", labels.length > 0);
      group.querySelector("title").textContent = this.data.pieces[index].name +
        (labels.length ? " (" + labels.join(", ") + ")" : "");
    }, this);
  };

  Board.prototype.highlight = function (frame) {
    var legal = frame.legal || {spaces: [], pieces: []};
    var next = frame.next || {};
    var legalSpaces = (legal.spaces || []).map(this.spaceName, this);
    var refusedSpaces = [];
    (frame.refused || []).forEach(function (refusal) {
      refusedSpaces = refusedSpaces.concat((refusal.spaces || []).map(this.spaceName, this));
    }, this);
    var nextSpaces = (next.spaces || []).map(this.spaceName, this);
    Object.keys(this.rects).forEach(function (name) {
      var group = this.rects[name].group;
      group.classList.toggle("rc-legal", legalSpaces.indexOf(name) >= 0);
      group.classList.toggle("rc-chosen", nextSpaces.indexOf(name) >= 0);
      group.classList.toggle("rc-refused-target", refusedSpaces.indexOf(name) >= 0);
    }, this);
    this.pieces.forEach(function (group, index) {
      group.classList.toggle("rc-legal", (legal.pieces || []).indexOf(index) >= 0);
      group.classList.toggle("rc-chosen", (next.pieces || []).indexOf(index) >= 0);
    });
  };

  /* Player: a board, the side panel and the controls. */
  function Player(root) {
    this.root = root;
    this.data = JSON.parse(root.getAttribute("data-rc-player"));
    this.board = new Board(root.querySelector("svg.rc-board"), this.data);
    this.index = 0;
    this.timer = null;
    this.labels = JSON.parse(root.getAttribute("data-rc-labels") || "{}");
    var self = this;
    function on(selector, handler) {
      root.querySelector(selector).addEventListener("click", function () { handler.call(self); });
    }
    on(".rc-restart", function () { this.pause(); this.go(0); });
    on(".rc-prev", function () { this.pause(); this.go(this.index - 1); });
    on(".rc-next-step", function () { this.pause(); this.go(this.index + 1); });
    on(".rc-play", function () { this.toggle(); });
    root.setAttribute("tabindex", "0");
    root.addEventListener("keydown", function (event) { self.key(event); });
    this.setPlaying(false);
    this.go(0);
  }

  /* The player's shortcuts, while the player itself has the focus: on a focused button, Space and
   * Enter press that button and nothing else. */
  Player.prototype.key = function (event) {
    if (event.target !== this.root || event.altKey || event.ctrlKey || event.metaKey) return;
    var handled = true;
    if (event.key === "ArrowRight") { this.pause(); this.go(this.index + 1); }
    else if (event.key === "ArrowLeft") { this.pause(); this.go(this.index - 1); }
    else if (event.key === " " || event.key === "Spacebar") { this.toggle(); }
    else if (event.key === "Escape") { this.pause(); this.go(0); }
    else handled = false;
    if (handled) { event.preventDefault(); event.stopPropagation(); }
  };

  Player.prototype.go = function (index) {
    var frames = this.data.frames;
    this.index = Math.max(0, Math.min(frames.length - 1, index));
    var frame = frames[this.index];
    this.board.show(frame);
    this.panel(frame);
    this.list(".rc-position ul", frame.position, function (node, line) { node.textContent = line; });
    this.root.setAttribute("data-frame", String(this.index));
    this.root.querySelector(".rc-step").textContent = String(this.index + 1);
  };

  Player.prototype.text = function (selector, value) {
    var node = this.root.querySelector(selector);
    node.textContent = value || "";
    return node;
  };

  Player.prototype.list = function (selector, items, render) {
    var node = this.root.querySelector(selector);
    node.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement(node.tagName === "DIV" ? "p" : "li");
      render(li, item);
      node.appendChild(li);
    });
    return node;
  };

  Player.prototype.panel = function (frame) {
    var labels = this.labels;
    this.text(".rc-phase", frame.phase);
    this.text(".rc-status", frame.status);
    var actor = frame.actor || {};
    var who = actor.kind === "team" ? actor.name + (actor.secret ? " (" + labels.secret + ")" : "")
      : actor.kind === "chance" ? labels.chance : labels.over;
    var actorName = this.text(".rc-actor-name", who);
    /* inside a step's automatic play ("flow": one phase of several) nobody is to act */
    this.root.querySelector(".rc-actor").hidden = actor.kind === "flow";
    actorName.className = "rc-actor-name" + (actor.kind === "team" ? " rc-team-" + actor.team : "");
    /* each die beside the name of the team that rolled it, in the team's colour */
    this.list(".rc-dice", frame.dice, function (node, die) {
      var who = die.by ? die.by + ", " : "";
      node.className = "rc-die-roll" + (die.team === null || die.team === undefined ? "" : " rc-team-" + die.team);
      node.title = who + labels.die + " " + die.die;
      if (die.by) {
        var by = document.createElement("span");
        by.className = "rc-die-by";
        by.setAttribute("aria-hidden", "true");
        by.textContent = die.by;
        node.appendChild(by);
      }
      var face = document.createElement("span");
      face.className = "rc-die";
      var name = document.createElement("span");
      name.className = "rc-sr-only";
      name.textContent = who + labels.die + " " + die.die + ": ";
      face.appendChild(name);
      face.appendChild(document.createTextNode(die.value));
      node.appendChild(face);
    });
    var events = frame.events.length ? frame.events : (this.index === 0 ? [labels.no_events] : []);
    this.list(".rc-events", events, function (node, line) {
      node.className = "rc-event rc-event-" + (line.kind || "start");
      node.textContent = (typeof line === "string" ? line : line.text).trim();
    });
    this.list(".rc-refused", frame.refused, function (node, refusal) {
      node.className = "rc-refusal";
      node.textContent = labels.refused + ": " + refusal.option + " — " + labels.by_rule + " " + refusal.rule;
    });
    var next = frame.next;
    this.text(".rc-next", next ? labels.next_choice + ": " + (next.option || labels.die + " " + next.roll) : "");
    this.text(".rc-option-count", "(" + frame.legal.options.length + ")");
    this.list(".rc-option-list", frame.legal.options, function (node, option) { node.textContent = option; });
  };

  Player.prototype.toggle = function () {
    if (this.timer) this.pause(); else this.play();
  };

  /* Plays the steps one after the other, unless the reader's system asks for reduced motion. */
  Player.prototype.play = function () {
    var self = this;
    if (reducedMotion()) return;
    if (this.index >= this.data.frames.length - 1) this.go(0);
    this.setPlaying(true);
    this.timer = window.setInterval(function () {
      if (!self.root.isConnected || self.index >= self.data.frames.length - 1) { self.pause(); return; }
      self.go(self.index + 1);
    }, PLAY_DELAY);
  };

  Player.prototype.pause = function () {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    this.setPlaying(false);
  };

  Player.prototype.setPlaying = function (playing) {
    var button = this.root.querySelector(".rc-play");
    var reduced = reducedMotion();
    var label = reduced ? this.labels.play_reduced : button.getAttribute(playing ? "data-pause" : "data-play");
    button.setAttribute("aria-disabled", String(reduced));
    button.setAttribute("aria-label", label);
    button.title = label;
    this.root.classList.toggle("rc-playing", playing);
  };

  /* Print: a page cannot play, so each example shows its key diagrams instead, the first and the
   * last position drawn static on copies of the board, and its steps as a list (the player's
   * controls and panel are hidden by the print style). Made once per player, before printing. */
  Player.prototype.printFrames = function () {
    if (this.root.querySelector(".rc-print-frames")) return;
    var frames = this.data.frames;
    var labels = this.labels;
    var keys = frames.length > 1 ? [0, frames.length - 1] : [0];
    var box = document.createElement("div");
    box.className = "rc-print-frames";
    keys.forEach(function (index) {
      var figure = document.createElement("figure");
      var svg = this.board.svg.cloneNode(true);
      svg.setAttribute("aria-hidden", "true");
      new Board(svg, this.data).show(frames[index]);
      var caption = document.createElement("figcaption");
      caption.textContent = labels.step + " " + (index + 1) + " " + labels.of + " " + frames.length +
        (frames[index].status ? " · " + frames[index].status : "");
      figure.appendChild(svg);
      figure.appendChild(caption);
      box.appendChild(figure);
    }, this);
    var steps = document.createElement("ol");
    steps.className = "rc-print-steps";
    frames.slice(1).forEach(function (frame, index) {
      var before = frames[index].next;
      var words = [before ? (before.option || labels.die + " " + before.roll) : ""];
      frame.events.forEach(function (line) { words.push((typeof line === "string" ? line : line.text).trim()); });
      var item = document.createElement("li");
      item.textContent = words.filter(Boolean).join(" · ");
      steps.appendChild(item);
    });
    var column = this.root.querySelector(".rc-board-column");
    column.insertBefore(box, column.querySelector(".rc-legend"));
    if (steps.children.length) this.root.appendChild(steps);
  };

  /* Every player of the page (also those added after it loaded) readied for printing. */
  function preparePrint() {
    initialise();
    document.querySelectorAll(".rc-player[data-rc-ready]").forEach(function (root) {
      root.rcPlayer.printFrames();
    });
  }
  window.rulecraftPreparePrint = preparePrint;
  window.addEventListener("beforeprint", preparePrint);

  function initialise() {
    document.querySelectorAll(".rc-player[data-rc-player]:not([data-rc-ready])").forEach(function (root) {
      root.setAttribute("data-rc-ready", "");
      root.rcPlayer = new Player(root);
    });
    nameSearchDialog();
    refreshLanguageLinks();
  }

  /* Material's search is a dialog without a name: it takes the name of its search field. */
  function nameSearchDialog() {
    document.querySelectorAll(".md-search[role=dialog]:not([aria-label])").forEach(function (dialog) {
      var field = dialog.querySelector("input[aria-label]");
      if (field) dialog.setAttribute("aria-label", field.getAttribute("aria-label"));
    });
  }

  if (REDUCED_MOTION && REDUCED_MOTION.addEventListener) {
    REDUCED_MOTION.addEventListener("change", function () {
      document.querySelectorAll(".rc-player[data-rc-ready]").forEach(function (root) {
        if (root.rcPlayer) root.rcPlayer.pause();
      });
    });
  }

  /* The selector's links lead to each language's root (<link rel="alternate" hreflang>); every
     language has the same pages, so the same page in another language is the current path with
     the language root swapped. */
  function refreshLanguageLinks() {
    var roots = [];
    document.querySelectorAll("head link[rel=alternate][hreflang]").forEach(function (link) {
      roots.push({lang: link.getAttribute("hreflang"), path: new URL(link.href).pathname});
    });
    var here = window.location.pathname;
    var current = roots.filter(function (root) { return here.indexOf(root.path) === 0; })
      .sort(function (a, b) { return b.path.length - a.path.length; })[0];
    if (!current) return;
    var rest = here.slice(current.path.length);
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
      var target = roots.filter(function (root) { return root.lang === link.getAttribute("hreflang"); })[0];
      if (target) link.href = new URL(target.path + rest, window.location.href).href;
    });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a.md-select__link[hreflang]") : null;
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    event.stopPropagation();
    /* the same place on the page: anchors are rule ids and example ids, the same in every language */
    window.location.assign(link.href.split("#")[0] + window.location.hash);
  }, true);

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(initialise);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initialise);
  } else {
    initialise();
  }
})();
