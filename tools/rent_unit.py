"""How a card sold only in whole servers (Gpu.sold_in, 8 for an HGX board) is rented, for a plan on part of one
(review CE #4: 4 x B200 picked for a full fine-tune while B200 'rents only as 8-GPU nodes'): the instance sizes the
price records offer it in (RentalPrice.gpus_per_instance) and who offers the plan's count, or, when no offer on record
rents that many, the instance the plan must pay for and its price an hour; and the clouds on record that rent it only
as whole nodes (knowledge clouds: instance sizes)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, prices
from gpu_advisor.knowledge.clouds import clouds, rentable_counts


class RentUnit(BaseModel):
    gpu: str = Field(description="Gpu.id")
    gpus: int = Field(description="cards the plan rents")
    sold_in: int = Field(description="cards per server the card is sold in")
    sizes: list[int] = Field(description="instance sizes (GPUs) the price records offer it in, in the region")
    providers: list[str] = Field(description="providers on record that rent an instance the plan's count fills")
    whole_only: list[str] = Field(description="ids of the clouds on record that rent it only as whole nodes of sold_in GPUs")
    unit: int = Field(description="GPUs the plan pays for: its own count when an offer rents that many, else the "
                                  "smallest instance on record that holds them")
    unit_usd_per_hour: float | None = Field(None, description="the plan's hourly rent scaled to `unit` GPUs")


def rent_unit(gpu_id: str, gpus: int, region: str, usd_per_hour: float | None, together: int) -> RentUnit | None:
    """The rent unit of a plan on part of a server of a card sold only in whole servers; None otherwise. together:
    the cards that must sit in one instance (a training run's every card, a served copy's tensor x pipeline split):
    four single-GPU pods are not one 4-GPU machine."""
    gpu = find_gpu(gpu_id)
    if gpu.sold_in <= 1 or gpus % gpu.sold_in == 0:
        return None
    offers = [p for p in prices() if p.gpu == gpu_id and p.region in (region, "global")]
    sizes = sorted({p.gpus_per_instance for p in offers})
    if not sizes:
        return None
    fitting = [p for p in offers if p.gpus_per_instance >= together and gpus % p.gpus_per_instance == 0]
    bigger = [s for s in sizes if s >= together]
    step = min(bigger) if bigger else gpu.sold_in  # no instance on record holds them: whole servers
    unit = gpus if fitting else step * -(-gpus // step)
    whole = [c.id for c in clouds().values() if rentable_counts(c.id, gpu_id) == (gpu.sold_in,)]
    per = usd_per_hour / gpus if usd_per_hour else None
    return RentUnit(gpu=gpu_id, gpus=gpus, sold_in=gpu.sold_in, sizes=sizes,
                    providers=sorted({p.provider for p in fitting}), whole_only=whole, unit=unit,
                    unit_usd_per_hour=per * unit if per is not None else None)
