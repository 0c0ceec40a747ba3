"""``omoide calibrate``: measure the configured embedder on the bundled calibration pairs and
store its calibration for the data folder, so the spec's thresholds (dedup 0.85, evolution
0.8) keep their meaning on its cosine scale (DESIGN principle 4).

The pairs are split before fitting (every other pair of each label): the anchors are fitted on
one half and the dedup threshold is reported on both, the held-out half never having been
looked at by the fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from omoide.clock import Clock, iso
from omoide.embed import EMBEDDERS
from omoide.embed.base import Embedder
from omoide.embed.calibration_store import Pair, bundled_pairs, is_bundled, save_calibration
from omoide.engine.calibration import Calibration
from omoide.engine.calibration_fit import (
    CalibrationError,
    DedupScore,
    dedup_score,
    fit_calibration,
    split_pairs,
)
from omoide.errors import InvalidInput

__all__ = ["CalibrationReport", "CalibrationService", "require_calibratable_setting"]


# what a refusal of an embedder Omoide ships says after naming it
_SHIPPED = (
    "ships a calibration measured by bench/calibrate.py; `omoide calibrate` is for embedders "
    "Omoide does not ship"
)


def require_calibratable_setting(name: str) -> None:
    """Refuse an embedder Omoide ships by its setting's name (``OMOIDE_EMBEDDER``: e5, use,
    hash), before it is built: building e5 loads its model (seconds), only for
    :meth:`CalibrationService.require_calibratable` to refuse it then."""
    if name in EMBEDDERS:
        raise InvalidInput(f"{name} (OMOIDE_EMBEDDER) {_SHIPPED}", field="OMOIDE_EMBEDDER")


@dataclass(frozen=True)
class CalibrationReport:
    model_id: str
    calibration: Calibration
    tuning: DedupScore
    validation: DedupScore
    pairs: int
    saved_to: Path | None


class CalibrationService:
    def __init__(self, embedder: Embedder, data_dir: Path, clock: Clock) -> None:
        self.embedder = embedder
        self.data_dir = data_dir
        self.clock = clock

    def calibrate(
        self, *, save: bool = True, force: bool = False, pairs: list[Pair] | None = None
    ) -> CalibrationReport:
        model_id = self.embedder.model_id
        if not force:
            self.require_calibratable()
        pairs = pairs if pairs is not None else bundled_pairs()
        tune, hold = split_pairs([p.label for p in pairs], pairs)
        try:
            fitted = fit_calibration(
                self._cosines(tune), note=f"measured by omoide calibrate on {len(tune)} pairs"
            )
        except CalibrationError as exc:
            raise InvalidInput(f"cannot calibrate {model_id}: {exc.message}") from None
        raw = fitted.to_raw(0.85)
        report = CalibrationReport(
            model_id=model_id,
            calibration=fitted,
            tuning=dedup_score(self._cosines(tune), raw),
            validation=dedup_score(self._cosines(hold), raw),
            pairs=len(pairs),
            saved_to=None,
        )
        if not save:
            return report
        path = save_calibration(
            self.data_dir,
            model_id,
            fitted,
            dim=self.embedder.dim,
            measured_at=iso(self.clock.now()),
            tuning_pairs=len(tune),
            validation={
                "recall": round(report.validation.recall, 3),
                "false_rate": round(report.validation.false_rate, 3),
            },
        )
        self.embedder.calibration = fitted
        return CalibrationReport(**{**report.__dict__, "saved_to": path})

    def require_calibratable(self) -> None:
        """Refuse an embedder Omoide ships (e5, use, hash): its calibration was measured by
        bench/calibrate.py. Callable before any work starts, so nothing is measured first."""
        model_id = self.embedder.model_id
        if is_bundled(model_id):
            raise InvalidInput(f"{model_id} {_SHIPPED}")

    def _cosines(self, pairs: list[Pair]) -> dict[str, np.ndarray]:
        texts = list(dict.fromkeys(t for p in pairs for t in (p.a, p.b)))
        vectors = dict(zip(texts, self.embedder.embed_passages(texts), strict=True))
        out: dict[str, list[float]] = {}
        for p in pairs:
            out.setdefault(p.label, []).append(float(vectors[p.a] @ vectors[p.b]))
        return {label: np.asarray(values) for label, values in out.items()}
