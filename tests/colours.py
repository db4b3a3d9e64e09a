"""Colours as a person sees them, for the browser tests: computed CSS colours, WCAG contrast and
colour distance under simulated colour-vision deficiencies.

Sources: WCAG 2.2, "relative luminance" and "contrast ratio" (success criterion 1.4.11 asks 3 : 1
for the parts of a graphic needed to understand it); CIEDE2000 and the Machado, Oliveira and
Fernandes (2009) simulation of protanopia, deuteranopia and tritanopia, both as implemented by
``colour-science``.
"""

from __future__ import annotations

import re

RGB = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)")


def parse_rgb(text: str) -> tuple[float, float, float]:
    """``rgb(r, g, b)`` / ``rgba(...)`` / ``#rrggbb`` as three channels in 0..1.

    Raises ValueError for anything else (``none``, a gradient, a name): a test must know the
    colour it compares.
    """
    text = text.strip()
    if text.startswith("#") and len(text) == 7:
        return tuple(int(text[i:i + 2], 16) / 255 for i in (1, 3, 5))
    match = RGB.match(text)
    if not match:
        raise ValueError(f"not an rgb colour: {text!r}")
    return tuple(float(channel) / 255 for channel in match.groups())


def luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour given in 0..1."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, two) -> float:
    """WCAG contrast ratio (1..21) of two colours (strings or 0..1 triples)."""
    a, b = (luminance(parse_rgb(c) if isinstance(c, str) else c) for c in (one, two))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


DEFICIENCIES = ("Protanomaly", "Deuteranomaly", "Tritanomaly")


def delta_e_seen(one, two, deficiency: str | None = None) -> float:
    """CIEDE2000 distance of two colours, as seen with full ``deficiency`` (one of
    :data:`DEFICIENCIES`, severity 1, that is protanopia, deuteranopia, tritanopia) or with
    normal vision (``None``)."""
    import warnings

    import numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # colour-science warns that matplotlib is absent
        import colour

    def lab(value):
        rgb = numpy.array(parse_rgb(value) if isinstance(value, str) else value)
        if deficiency:
            linear = colour.cctf_decoding(rgb)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # its note on how tritanomaly is modelled
                matrix = colour.matrix_cvd_Machado2009(deficiency, 1)
            rgb = colour.cctf_encoding(numpy.clip(matrix @ linear, 0, 1))
        return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(rgb))
    return float(colour.delta_E(lab(one), lab(two), method="CIE 2000"))
