"""What a person notices on a screen, measured in the browser (ui-contract « What a person sees,
at every size »): a word drawn on two lines, a text sticking out of its box or clipped, the page
scrolling sideways, a box that scrolls with no sign of it, a word of the chart past its edge,
tables, chart and result drawn over one another.

`problems(page)` returns them as sentences (empty when the screen is whole). Used by
tests/e2e/test_layout.py and by scripts/screenshots.py, which prints them next to each picture.
"""

from __future__ import annotations

from playwright.sync_api import Page

# A word is cut when its glyphs sit on two line boxes. Words split at spaces, hyphens and
# slashes (a name may wrap there); a word in a box that scrolls is not clipped, the person
# scrolls. Elements that are hidden, or meant to wrap anywhere (a long address), are skipped.
_PROBE = r"""
() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    problems.push(`the page scrolls sideways (${root.scrollWidth} px wide in ${root.clientWidth})`);
  }
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    return el.getClientRects().length > 0;
  };
  const skipped = ".visually-hidden, script, style, svg, noscript, .follow-address, [hidden]";
  const lineBoxes = (rects) => {
    const lines = [];
    for (const r of rects) {
      if (r.width < 1) continue;
      if (!lines.some((l) => r.top < l.bottom - 2 && r.bottom > l.top + 2)) lines.push(r);
    }
    return lines.length;
  };
  const where = (el) => {
    const label = el.closest("[id]");
    return `${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ")[0] : ""}` +
      (label ? ` in #${label.id}` : "");
  };
  const cut = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skipped) || !shown(parent)) continue;
    for (const match of node.data.matchAll(/[^\s\-\u2010\u2011\u2013\u2014\/]+/gu)) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (lineBoxes(range.getClientRects()) > 1) cut.add(`« ${match[0]} » is cut across lines (${where(parent)})`);
    }
  }
  // Bits of text in their own element that must stay whole: a rank (8<sup>e</sup>), a crown.
  for (const el of document.querySelectorAll(".rank, .crown, .nowrap")) {
    if (shown(el) && lineBoxes(el.getClientRects()) > 1) cut.add(`« ${el.textContent.trim()} » is cut across lines (${where(el)})`);
  }
  problems.push(...cut);
  // Text wider than its box: sticking out (drawn over its neighbour) or clipped (« Chl… »).
  const boxes = "th, td, label, caption, button, .button, h1, h2, h3, p, li, dt, dd, legend, a, .name, .who";
  for (const el of document.querySelectorAll(boxes)) {
    if (el.closest(skipped) || !shown(el)) continue;
    const style = getComputedStyle(el);
    if (style.display === "inline") continue;
    if (["auto", "scroll"].includes(style.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      problems.push(`« ${el.textContent.trim().slice(0, 40)} » does not fit its box: ` +
        `${el.scrollWidth} px in ${el.clientWidth} (${where(el)})`);
    }
  }
  // A box that scrolls sideways says so at its edge (a shadow drawn by its background): without
  // it, a tablet shows 5 of 10 players' columns as if they were all.
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (!["auto", "scroll"].includes(style.overflowX) || !shown(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && !style.backgroundImage.includes("gradient")) {
      problems.push(`${where(el)} scrolls sideways with no sign of it`);
    }
  }
  // The chart's words (a name and its total at its line's end, the axes' figures) whole inside
  // it: the SVG clips what goes past its edge.
  for (const svg of document.querySelectorAll("svg[viewBox]")) {
    if (!shown(svg)) continue;
    const view = svg.viewBox.baseVal;
    for (const text of svg.querySelectorAll("text")) {
      const box = text.getBBox();
      if (box.x < view.x - 0.5 || box.y < view.y - 0.5 || box.x + box.width > view.x + view.width + 0.5 ||
          box.y + box.height > view.y + view.height + 0.5) {
        problems.push(`« ${text.textContent.trim().slice(0, 40)} » is clipped at the chart's edge`);
      }
    }
  }
  // Tables, the chart and the result never overlap.
  const blocks = [...document.querySelectorAll("table, .chart, .result")].filter(shown);
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      const [a, b] = [blocks[i], blocks[j]];
      if (a.contains(b) || b.contains(a)) continue;
      const [p, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 2 && h > 2) problems.push(`${where(a)} and ${where(b)} overlap (${Math.round(w)} × ${Math.round(h)} px)`);
    }
  }
  return problems;
}
"""


def problems(page: Page) -> list[str]:
    """What a person would notice as broken on the page as it is drawn now."""
    return page.evaluate(_PROBE)
