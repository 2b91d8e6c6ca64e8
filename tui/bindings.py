"""Every key binding of the app in one place, each with an id (for remapping) and a description."""

from __future__ import annotations

from textual.binding import Binding

from gpu_advisor.assistant.catalog import say


def label(action: str) -> str:
    """A shown key's description: the catalog's words for its action (the key bar says them in the
    conversation's language, see tui.widgets.LocalFooter)."""
    return say("en", f"key.{action}")


APP_BINDINGS = [
    Binding("ctrl+q", "quit", label("quit"), id="app.quit", priority=True),
    Binding("f1", "help", label("help"), id="app.help"),
    Binding("ctrl+s", "sessions", label("sessions"), id="app.sessions"),
    Binding("ctrl+n", "new_session", "New", id="app.new_session", show=False),
]

CHAT_BINDINGS = [
    Binding("ctrl+e", "math", label("math"), id="chat.math", priority=True, tooltip="Show the math behind the last answer"),
    Binding("ctrl+y", "copy_answer", label("copy_answer"), id="chat.copy", priority=True, tooltip="Copy the last answer"),
    Binding("f3", "toggle_panel", label("toggle_panel"), id="chat.panel", tooltip="Show or hide the profile and assumptions"),
    Binding("escape", "cancel_turn", "Cancel", id="chat.cancel", show=False),
    Binding("ctrl+r", "replay", "Replay", id="chat.replay", show=False),
    # The transcript scrolls while the input keeps the focus.
    Binding("pageup", "scroll_transcript('page_up')", "Scroll up", id="chat.page_up", show=False, priority=True),
    Binding("pagedown", "scroll_transcript('page_down')", "Scroll down", id="chat.page_down", show=False,
            priority=True),
    Binding("ctrl+home", "scroll_transcript('home')", "Top of the transcript", id="chat.top", show=False,
            priority=True),
    Binding("ctrl+end", "scroll_transcript('end')", "End of the transcript", id="chat.bottom", show=False,
            priority=True),
    # priority: handled as it arrives, so that keys typed right after it reach the chip it focused
    Binding("tab", "next_field", "Next field", id="chat.next", show=False, priority=True),
    # ↑/↓ in the message box recall what was sent: this key moves to the messages, where ↑/↓ move between them
    Binding("ctrl+up,alt+up", "focus_messages", "Messages", id="chat.messages", show=False),
]

# A message of the transcript, once focused (chat.messages): its keys show in the key bar.
MESSAGE_BINDINGS = [
    Binding("c", "copy_message", "Copy", id="message.copy"),
    Binding("r", "reask", "Re-ask", id="message.reask"),
    Binding("f4", "edit_message", "Edit", id="message.edit"),
    Binding("p", "page_message", "Pager", id="message.pager"),
    Binding("up,k", "move(-1)", "Previous message", id="message.up", show=False),
    Binding("down,j", "move(1)", "Next message", id="message.down", show=False),
    Binding("escape", "to_prompt", "Back", id="message.back", show=False),
]

SESSIONS_BINDINGS = [
    Binding("enter", "open", "Open", id="sessions.open"),
    # The action keys work from the search box too (priority: before the box's own Ctrl+K, delete to
    # the end); Del stays the box's delete key there and deletes a session from the list.
    Binding("ctrl+r", "replay", "Replay", id="sessions.replay", priority=True),
    Binding("ctrl+k", "check", "Re-run", id="sessions.check", priority=True),
    # listed in the screen's status line, so that the footer fits 80 columns
    Binding("f2", "rename", "Rename", id="sessions.rename", show=False, priority=True),
    Binding("ctrl+o", "export", "Export", id="sessions.export", show=False, priority=True),
    Binding("delete", "delete", "Delete (in the list)", id="sessions.delete", show=False),
    Binding("down", "to_list", "From the search box to the list", id="sessions.to_list", show=False),
    Binding("escape", "back", "Back", id="sessions.back"),
]

REPLAY_BINDINGS = [
    Binding("right,l", "step(1)", "Next", id="replay.next"),
    Binding("left,h", "step(-1)", "Back", id="replay.back"),
    # listed in the screen's status line (with the speed keys), so that the footer fits 80 columns
    Binding("space", "toggle_play", "Play/pause", id="replay.play", show=False),
    Binding("plus,equals_sign", "speed(0.5)", "Faster", id="replay.faster", show=False),
    Binding("minus", "speed(2.0)", "Slower", id="replay.slower", show=False),
    Binding("home", "jump(0)", "Start", id="replay.start", show=False),
    Binding("end", "jump(-1)", "End", id="replay.end", show=False),
    # the shown messages scroll (a long answer is read to its end): listed in the status line
    Binding("down,j", "scroll('down')", "Scroll down a line", id="replay.line_down", show=False),
    Binding("up,k", "scroll('up')", "Scroll up a line", id="replay.line_up", show=False),
    Binding("pagedown", "scroll('page_down')", "Scroll down a page", id="replay.page_down", show=False),
    Binding("pageup", "scroll('page_up')", "Scroll up a page", id="replay.page_up", show=False),
    Binding("ctrl+end", "scroll('end')", "To the end of what is shown", id="replay.bottom", show=False),
    Binding("ctrl+home", "scroll('home')", "To the top of what is shown", id="replay.top", show=False),
    Binding("escape", "back", "Close", id="replay.close"),
]

ALL_BINDINGS = [*APP_BINDINGS, *CHAT_BINDINGS, *MESSAGE_BINDINGS, *SESSIONS_BINDINGS, *REPLAY_BINDINGS]
