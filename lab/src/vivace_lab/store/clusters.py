"""Hardware/cluster descriptions and their hourly prices."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from vivace_lab.store.info import ClusterInfo
from vivace_lab.store.schema import Cluster


def ensure_cluster(session: Session, name: str, description: dict[str, Any] | None = None,
                   hourly_price: float | None = None) -> int:
    """Id of the named cluster, created when missing.

    An existing cluster takes the new description when one is given; its price changes only when
    a price is given (a price edited by hand is not reset by a later call without one).
    """
    cluster = session.scalar(select(Cluster).where(Cluster.name == name))
    if cluster is None:
        cluster = Cluster(name=name, description=dict(description or {}),
                          hourly_price=_price(hourly_price))
        session.add(cluster)
        session.flush()
        return cluster.id
    if description is not None and cluster.description != description:
        cluster.description = dict(description)
    if hourly_price is not None:
        cluster.hourly_price = _price(hourly_price)
    return cluster.id


def set_cluster_price(session: Session, name: str, hourly_price: float) -> None:
    cluster = session.scalar(select(Cluster).where(Cluster.name == name))
    if cluster is None:
        raise KeyError(f"no cluster named {name!r}")
    cluster.hourly_price = _price(hourly_price)


def list_clusters(session: Session) -> list[ClusterInfo]:
    rows = session.execute(select(Cluster.id, Cluster.name, Cluster.description,
                                  Cluster.hourly_price, Cluster.created).order_by(Cluster.name))
    return [ClusterInfo(*row) for row in rows]


def _price(value: float | None) -> float | None:
    if value is None:
        return None
    value = float(value)
    if not value >= 0:  # also refuses NaN
        raise ValueError(f"hourly price must be a number >= 0, got {value!r}")
    return value
