"""The engines a persona's settings choose: the LLM classifier, consolidator and segment
judge (each with its offline fallback) when an LLM is configured, else the offline ones."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from omoide.config import PersonaSettings
from omoide.engine.classify import Classifier
from omoide.engine.consolidate import Consolidator
from omoide.engine.segment import OfflineSegmenter, Segmenter

logger = logging.getLogger(__name__)


def classifier_factory(llm: Any, offline: Classifier) -> Callable[[PersonaSettings], Classifier]:
    """Per persona: the LLM classifier (offline fallback) when configured, else offline."""

    def classifier_for(cfg: PersonaSettings) -> Classifier:
        if cfg.classifier == "offline" or llm is None:
            if cfg.classifier == "llm":
                logger.warning("classifier=llm but no LLM is configured; using the offline one")
            return offline
        from omoide.llm.classify import LLMClassifier

        return LLMClassifier(llm, fallback=offline, lang=cfg.language)

    return classifier_for


def consolidator_factory(llm: Any) -> Callable[[PersonaSettings], Consolidator]:
    """The LLM consolidator (offline fallback) when an LLM is configured, else offline."""
    from omoide.engine.consolidate import OfflineConsolidator

    offline = OfflineConsolidator()
    if llm is None:
        return lambda cfg: offline
    from omoide.llm.consolidate import LLMConsolidator

    with_llm = LLMConsolidator(llm, fallback=offline)
    return lambda cfg: with_llm


def segmenter_factory(llm: Any) -> Callable[[PersonaSettings], Segmenter]:
    """Per persona: the LLM segment judge (offline fallback) when ``segmenter`` asks for it and
    an LLM is configured, else the offline segmenter."""
    offline = OfflineSegmenter()
    with_llm: Segmenter | None = None
    if llm is not None:
        from omoide.llm.segment import LLMSegmentJudge

        with_llm = LLMSegmentJudge(llm)

    def segmenter_for(cfg: PersonaSettings) -> Segmenter:
        if cfg.segmenter == "offline" or with_llm is None:
            if cfg.segmenter == "llm":
                logger.warning("segmenter=llm but no LLM is configured; using the offline one")
            return offline
        return with_llm

    return segmenter_for
