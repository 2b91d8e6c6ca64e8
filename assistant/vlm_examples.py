"""Training examples of a vision-language model counted with their images (review s29: '图文数据二十万条' for
InternVL3-38B was sized at 1,000 text tokens a sample, no image tokens). An example of such a model is its text and
its images: '2万张图' (images counted) is each image's tokens plus the instruction and answer with it; a count of
examples with no length said ('图文数据二十万条', '200k image-text samples') is a text example's typical length plus
one image (the assumption said, so one to five images a sample can be put right). The training sequence assumed
holds one such example (example_sequence, the seq_len slot's default), so the activations are sized for it."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading import EXAMPLE_TOKENS
from gpu_advisor.knowledge import find_model
from gpu_advisor.tools.phases import IMAGE_EXAMPLE_TEXT_TOKENS

# The tools' training sequence when none is said (tools.recommend's default).
TOOLS_SEQ_LEN = 2048
# Images in one training example when the count is not said (one image and its question and answer: the common
# image-text SFT sample; multi-image and video samples are said as such).
IMAGES_PER_EXAMPLE = 1

Note = tuple[str, dict[str, str]]


def _image_tokens(model: str | None) -> int:
    try:
        return (find_model(model).image_tokens or 0) if model else 0
    except (LookupError, ValueError):
        return 0


def example_images(u: Any, updates: dict[str, Any], profile: Any) -> Note | None:
    """The note for examples sized with their images (updates' train_tokens and seq_len set in place), or None when
    the model reads no images or the examples' length was said. The caller drops the text-length note."""
    n = updates.get("train_examples")
    image = _image_tokens(updates.get("model") or profile.model)
    if not n or not image:
        return None
    if u.example_images:  # the examples counted are images: each image and the words with it
        each = image + IMAGE_EXAMPLE_TEXT_TOKENS
        updates["train_tokens"] = float(int(n) * each)
        return "note.example_images", {"n": f"{int(n):,}", "each": f"{each:,}", "image": f"{image:,}",
                                       "text": f"{IMAGE_EXAMPLE_TEXT_TOKENS:,}"}
    assumed = [v for k, v in u.notes if k == "note.example_tokens"]
    if not assumed or assumed[-1].get("each") != f"{EXAMPLE_TOKENS:,}" or "seq_len" in updates:
        return None  # a length said, or a kind of example with its own typical length
    each = EXAMPLE_TOKENS + IMAGES_PER_EXAMPLE * image
    updates["train_tokens"] = float(int(n) * each)
    return "note.example_vlm", {"n": f"{int(n):,}", "each": f"{each:,}", "text": f"{EXAMPLE_TOKENS:,}",
                                "images": str(IMAGES_PER_EXAMPLE), "image": f"{image:,}",
                                "total": f"{int(n) * each / 1e6:,.0f}"}


def example_sequence(profile: Any) -> int | None:
    """The training sequence that holds one example of a vision model's data (its text and images, as counted in
    train_tokens over train_examples) when that is longer than the tools' default; None otherwise."""
    n, tokens = profile.get("train_examples"), profile.get("train_tokens")
    if not n or not tokens or not _image_tokens(profile.get("model")):
        return None
    each = round(tokens / n)
    return each if each > TOOLS_SEQ_LEN else None
