"""A Box space shaped like ``gymnasium.spaces.Box`` (without depending on
Gymnasium): ``low``, ``high``, ``shape``, ``dtype``, ``sample()``,
``contains()``, ``seed()``, plus per-element ``labels``."""

from __future__ import annotations

from typing import Sequence

import numpy as np


class Box:
    """A box [low, high] in R^shape; bounds may be ±inf."""

    def __init__(self, low: float | np.ndarray, high: float | np.ndarray,
                 shape: Sequence[int] | None = None, dtype: type = np.float32,
                 labels: Sequence[str] = (), seed: int | None = None) -> None:
        if shape is None:
            shape = np.broadcast(np.asarray(low), np.asarray(high)).shape
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()
        if np.any(self.low > self.high):
            raise ValueError("Box: low > high")
        self.labels = list(labels)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed: int | None = None) -> None:
        """Re-seeds :meth:`sample`."""
        self.np_random = np.random.default_rng(seed)

    def sample(self) -> np.ndarray:
        """Uniform in bounded dimensions, normal where unbounded (as Gymnasium)."""
        low = np.where(np.isfinite(self.low), self.low, -1.0)
        high = np.where(np.isfinite(self.high), self.high, 1.0)
        out = self.np_random.uniform(low, high, self.shape)
        unbounded = ~np.isfinite(self.low) & ~np.isfinite(self.high)
        if unbounded.any():
            out[unbounded] = self.np_random.normal(size=int(unbounded.sum()))
        return out.astype(self.dtype)

    def contains(self, x: np.ndarray) -> bool:
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    __contains__ = contains

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Box) and self.shape == other.shape and
                self.dtype == other.dtype and np.array_equal(self.low, other.low) and
                np.array_equal(self.high, other.high))

    def __repr__(self) -> str:
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


def batch_space(space: Box, n: int) -> Box:
    """The Box of n stacked samples of ``space``."""
    return Box(np.broadcast_to(space.low, (n, *space.shape)),
               np.broadcast_to(space.high, (n, *space.shape)),
               (n, *space.shape), space.dtype, space.labels)
