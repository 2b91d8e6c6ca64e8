"""What the screens share about their layout."""

NARROW = 110  # below this many columns the side panel folds away (F3 shows it)
