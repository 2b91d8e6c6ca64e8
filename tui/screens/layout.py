"""What the screens share about their layout."""

NARROW = 110  # below this many columns the side panel folds away (F3 shows it)
WIDE = 160  # from this many columns the chat's side panel is wider (a profile line fits on one line)
