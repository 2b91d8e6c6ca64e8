"""The app's screens, one module each: chat, sessions, replay, help, and the small modal dialogs
(text, choice, confirm, prompt). The names below are the package's public ones."""

from tui.clipboard import copy_locally
from tui.screens.chat import WELCOME, ChatScreen
from tui.screens.choice import ChoiceScreen
from tui.screens.confirm import ConfirmScreen
from tui.screens.help import HelpScreen, key_names
from tui.screens.layout import NARROW
from tui.screens.prompt import PromptScreen
from tui.screens.replay import ReplayScreen
from tui.screens.sessions import SESSION_PAGE, SessionsScreen, rerun_in_background
from tui.screens.text import TextScreen

__all__ = [
    "NARROW",
    "SESSION_PAGE",
    "WELCOME",
    "ChatScreen",
    "ChoiceScreen",
    "ConfirmScreen",
    "HelpScreen",
    "PromptScreen",
    "ReplayScreen",
    "SessionsScreen",
    "TextScreen",
    "copy_locally",
    "key_names",
    "rerun_in_background",
]
