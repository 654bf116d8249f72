from __future__ import annotations

import dataclasses

import pytest

from challenges.engine.model import Template, TemplateError, TemplateSpec, register, validate_spec

SPEC = TemplateSpec(slug="sample-spec", title="t", family="logic-boundary", bug_class="b", bug_type="b",
                    solution_approach="s", tier=2, languages=("python",), key_concepts=("k",),
                    architecture="a")


@pytest.mark.parametrize(("change", "field"), [
    ({"slug": "Bad Slug"}, "slug"),
    ({"family": "astrology"}, "family"),
    ({"tier": 6}, "tier"),
    ({"languages": ()}, "languages"),
    ({"styles": ("baroque",)}, "styles"),
    ({"bug_levels": ()}, "bug_levels"),
    ({"red_herrings": ("smoke",)}, "red_herrings"),
    ({"tier": 4, "canaries": ("only-one",)}, "canaries"),
])
def test_invalid_specs_name_the_field(change, field):
    with pytest.raises(TemplateError) as exc:
        validate_spec(dataclasses.replace(SPEC, **change))
    assert exc.value.code == "template_invalid" and exc.value.field == field


def test_canary_ranges_follow_the_deployment_rules():
    assert dataclasses.replace(SPEC, tier=2).canary_range()[0] == 0
    assert dataclasses.replace(SPEC, tier=3).canary_range() == (1, 3)
    assert dataclasses.replace(SPEC, tier=5).canary_range() == (2, 3)


def test_duplicate_slugs_are_refused(monkeypatch):
    from challenges.engine import model

    monkeypatch.setattr(model, "_REGISTRY", dict(model._REGISTRY))  # keep the process registry clean

    class First(Template):
        spec = dataclasses.replace(SPEC, slug="dup-slug-test")

        def build(self, ctx):
            raise AssertionError

    class Second(Template):
        spec = dataclasses.replace(SPEC, slug="dup-slug-test")

        def build(self, ctx):
            raise AssertionError

    register(First)
    with pytest.raises(TemplateError) as exc:
        register(Second)
    assert exc.value.code == "template_duplicate"
