"""Whether a model's licence lets it be used commercially at the user's scale (knowledge/licences.py): per model
(or per licence of a family named without a size) the licence, its terms and a typed verdict: 'allowed',
'over_limit' (more monthly active users than the licence allows without the owner's own), 'not_allowed'
(research only), 'unknown' (no licence on record). Deterministic; not legal advice."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from gpu_advisor.knowledge.licences import Licence, family_licences, licence_of

Verdict = Literal["allowed", "over_limit", "not_allowed", "unknown"]


class LicenceTerms(BaseModel):
    """One model's (or one family licence's) terms and the verdict at the scale said."""

    subject: str  # a model id, or a family id when named without a size
    licence_id: str | None = None
    name: str | None = None
    url: str | None = None
    models: list[str] = []
    mau_limit: int | None = None
    attribution: str | None = None
    use_policy: bool = False
    name_prefix: str | None = None
    mau: int | None = None
    verdict: Verdict = "unknown"
    as_of: str | None = None


def _terms(subject: str, lic: Licence | None, mau: int | None) -> LicenceTerms:
    if lic is None:
        return LicenceTerms(subject=subject, mau=mau)
    verdict: Verdict = "not_allowed" if lic.commercial == "not_allowed" else \
        "over_limit" if lic.mau_limit is not None and mau is not None and mau > lic.mau_limit else "allowed"
    return LicenceTerms(subject=subject, licence_id=lic.id, name=lic.name, url=lic.url, models=list(lic.models),
                        mau_limit=lic.mau_limit, attribution=lic.attribution, use_policy=lic.use_policy,
                        name_prefix=lic.name_prefix, mau=mau, verdict=verdict, as_of=lic.as_of.isoformat())


def licence_terms(model_ids: list[str], families: list[str], mau: int | None = None) -> list[LicenceTerms]:
    """The terms for each model named and each licence of each family named without a size, in order, once."""
    found: list[LicenceTerms] = []
    seen: set[str] = set()
    for model_id in model_ids:
        terms = _terms(model_id, licence_of(model_id), mau)
        if (terms.licence_id or model_id) not in seen:
            seen.add(terms.licence_id or model_id)
            found.append(terms)
    for family in families:
        for lic in family_licences(family):
            if lic.id not in seen:
                seen.add(lic.id)
                found.append(_terms(family, lic, mau))
    return found


def as_data(terms: list[LicenceTerms]) -> list[dict[str, Any]]:
    return [t.model_dump(mode="json") for t in terms]
