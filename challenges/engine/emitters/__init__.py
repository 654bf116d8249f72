"""Language emitters (see ``base.Emitter``)."""

from challenges.engine.emitters.base import Emitter, ProjectInfo, ScaffoldState, get_emitter, register_emitter

__all__ = ["Emitter", "ProjectInfo", "ScaffoldState", "get_emitter", "register_emitter"]
