"""The app's screens, one module each: chat, sessions, replay, help, and the small modal dialogs
(text, choice, confirm, prompt). The names below are the package's public ones."""

from gpu_advisor.tui.clipboard import copy_locally
from gpu_advisor.tui.screens.chat import WELCOME, ChatScreen
from gpu_advisor.tui.screens.choice import ChoiceScreen
from gpu_advisor.tui.screens.confirm import ConfirmScreen
from gpu_advisor.tui.screens.help import HelpScreen, key_names
from gpu_advisor.tui.screens.layout import NARROW
from gpu_advisor.tui.screens.prompt import PromptScreen
from gpu_advisor.tui.screens.replay import ReplayScreen
from gpu_advisor.tui.screens.sessions import SESSION_PAGE, SessionsScreen, rerun_in_background
from gpu_advisor.tui.screens.text import TextScreen

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
