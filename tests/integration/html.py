"""A small HTML tree built with the standard library, to read pages the way a person reads them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Element | None = None):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def iter(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Element]:
        """Return the descendants with this tag and these attributes (True: present, any value)."""
        found = []
        for element in self.iter():
            if tag is not None and element.tag != tag:
                continue
            if all(
                (name.rstrip("_").replace("_", "-") in element.attrs)
                if value is True
                else element.attrs.get(name.rstrip("_").replace("_", "-")) == value
                for name, value in attrs.items()
            ):
                found.append(element)
        return found

    def find(self, tag: str | None = None, **attrs: str | bool) -> Element | None:
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def by_id(self, element_id: str) -> Element | None:
        return self.find(id=element_id)

    @property
    def text(self) -> str:
        """Return the text inside, with whitespace collapsed as a browser shows it."""
        parts: list[str] = []

        def walk(node: Element) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.tag not in ("script", "style", "template"):
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(markup: str | bytes) -> Element:
    builder = _TreeBuilder()
    builder.feed(markup.decode() if isinstance(markup, bytes) else markup)
    builder.close()
    return builder.root


# --- The game page, read through its accessible names ---------------------------------------------


def accessible_text(element: Element) -> str:
    """Return the text a screen reader reads: what is hidden with aria-hidden is left out."""
    parts: list[str] = []

    def walk(node: Element) -> None:
        for child in node.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.get("aria-hidden") != "true" and child.tag not in ("script", "style"):
                walk(child)

    walk(element)
    return " ".join("".join(parts).split())


def table_named(page: Element, caption: str) -> Element | None:
    for table in page.find_all("table"):
        found = table.find("caption")
        if found is not None and found.text == caption:
            return table
    return None


def scoreboard(page: Element) -> list[tuple[str, int, bool]]:
    """Return (name, total, carries the crown « en tête ») for each player's row of the « Scores »
    table (a row telling what is wrong with a field has no row header)."""
    return [(name, total, crowned) for name, total, _, crowned in scoreboard_lines(page)]


def scoreboard_lines(page: Element) -> list[tuple[str, int, str, bool]]:
    """Return (name, total, last round as shown « +N », crowned) for each player's row."""
    table = table_named(page, "Scores")
    assert table is not None, "no table named « Scores »"
    rows = []
    for row in table.find("tbody").find_all("tr"):
        header = row.find("th")
        if header is None:
            continue
        # The name is the field's label while the game goes on, plain text after.
        name = (header.find("label") or header.find("span", class_="name")).text
        total, last = (cell.text for cell in row.find_all("td")[:2])
        rows.append((name, int(total), last, "en tête" in header.text))
    return rows


def totals(page: Element) -> dict[str, int]:
    return {name: total for name, total, _ in scoreboard(page)}


def leaders(page: Element) -> set[str]:
    return {name for name, _, crowned in scoreboard(page) if crowned}


def round_lines(page: Element) -> list[list[int]]:
    """Return the heads of each line « Manche N » of the « Manches » table, in order."""
    table = table_named(page, "Manches")
    assert table is not None, "no table named « Manches »"
    lines = []
    for number, row in enumerate(
        (r for r in table.find("tbody").find_all("tr") if r.find("th") is not None), start=1
    ):
        assert re.match(rf"Manche {number}(?!\d)", row.find("th").text), row.find("th").text
        lines.append([int(cell.text) for cell in row.find_all("td")])
    return lines


def button(page: Element, name: str) -> Element | None:
    for element in page.find_all("button"):
        if element.text == name:
            return element
    return None


def link(page: Element, name: str) -> Element | None:
    for element in page.find_all("a"):
        if element.text == name:
            return element
    return None


def form_of(page: Element, button_name: str) -> Element | None:
    """Return the form that holds the button with this name."""
    found = button(page, button_name)
    while found is not None and found.tag != "form":
        found = found.parent
    return found


def root_of(element: Element) -> Element:
    while element.parent is not None:
        element = element.parent
    return element


def field_labelled(page: Element, label_text: str) -> Element | None:
    """Return the input whose <label> says exactly this text; given a form, one of that form's
    fields, inside it or tied to it by its `form` attribute (as the round's fields are)."""
    if page.tag != "form":
        for label in page.find_all("label"):
            if label.text == label_text and label.get("for"):
                return page.by_id(label.get("for"))
        return None
    found = field_labelled(root_of(page), label_text)
    if found is None:
        return None
    inside = any(element is found for element in page.iter())
    tied = page.get("id") is not None and found.get("form") == page.get("id")
    return found if inside or tied else None


def hidden_value(form: Element, name: str) -> str | None:
    found = form.find("input", name=name)
    return None if found is None else found.get("value")


def status_text(page: Element) -> str:
    """Return the text of every role="status" region shown (not `hidden`), joined."""
    return " ".join(
        element.text for element in page.find_all(role="status") if "hidden" not in element.attrs
    )


def has_word(text: str, number: int) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None
