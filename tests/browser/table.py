"""What a referee's thumb does on the entry page, for the browser tests: choose who won and how (one
tap), the knocker's deadwood (one key), the counts; and a counter of touches that counts honestly.

``Touches`` counts a tap as one touch, plus one more when what is tapped is not on the screen (the swipe
to bring it there), and every key typed on the phone's keypad as one. Typing goes where the page put the
focus by itself: the counter checks that it did, rather than counting a tap nobody made.
"""

from __future__ import annotations

from .test_referee_phone import sync_api

SIZES = [(390, 844), (360, 740)]  # an iPhone 12-15 and a small Android phone


def play(scope, result: str, knocker: str | None = None):
    """Tap who won and how: ``play(page, "knock", "Ann")``, ``play(page, "dead")``."""
    value = result if knocker is None else f"{result}:{knocker}"
    return scope.locator(f"label.play[data-play='{value}']")


def key(scope, count: int):
    """The knocker's deadwood key ``count``."""
    return scope.locator(f"fieldset.keys label.key:has(input[value='{count}'])")


def record_knock(scope, knocker: str, knocker_deadwood: int, opponent_deadwood: int) -> None:
    """A knock, entered as a referee does: the choice, the key, the opponent's count."""
    play(scope, "knock", knocker).click()
    key(scope, knocker_deadwood).click()
    scope.locator("input[name$=opponent_deadwood]").fill(str(opponent_deadwood))


def on_screen(locator) -> bool:
    """Wholly within the screen (to the pixel: a box scrolled flush with an edge may end a fraction past it)."""
    return locator.evaluate("""el => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.top >= -1 && r.left >= -1
            && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1;
    }""")


class Touches:
    def __init__(self, page):
        self.page = page
        self.log: list[str] = []

    @property
    def count(self) -> int:
        return len(self.log)

    def tap(self, locator, what: str) -> None:
        locator.wait_for(state="visible")
        if not on_screen(locator):
            self.log.append(f"swipe to {what}")
            locator.scroll_into_view_if_needed()
        locator.tap()
        self.log.append(f"tap {what}")

    def type(self, text: str, into) -> None:
        """Keys typed into the field the page focused by itself (no tap needed: checked, not assumed)."""
        sync_api.expect(into).to_be_focused()
        for char in text:
            self.page.keyboard.press(char)
            self.log.append(f"key {char}")

    def __str__(self) -> str:
        return f"{self.count} touches: " + ", ".join(self.log)
