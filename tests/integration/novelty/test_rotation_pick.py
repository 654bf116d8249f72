"""Each rotation rule has a test that fails when the rule is dropped."""

from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.models import ChallengeInstance, Lexicon
from challenges.selectors.rotation import language_stack, rotation_calendar
from challenges.services.rotation import rotation_pick
from core.errors import Conflict
from core.services import config_set
from tests.integration.novelty.helpers import lexicons, released, template

pytestmark = pytest.mark.django_db

PY = language_stack("python")


@pytest.fixture
def pool():
    return lexicons(50)


def blocked_reasons(language="python", **kwargs):
    with pytest.raises(Conflict) as caught:
        rotation_pick(language=language, **kwargs)
    assert caught.value.code == "no_eligible_template"
    return caught.value.extra["templates"]


def test_unused_template_is_picked_with_every_domain_and_its_stack(pool):
    only = template()
    choice = rotation_pick(language="python")
    assert choice.template == only
    assert sorted(choice.allowed_lexicon_keys) == sorted(pool)
    assert choice.allowed_stacks == [list(PY)]
    assert choice.weight == 1.0 and choice.reasons


def test_cooldown_blocks_for_14_days_after_use(pool):
    only = template()
    released(template=only, days_ago=13, lexicon_key=pool[0])
    reasons = blocked_reasons()[only.slug]
    assert any(r.startswith("cooldown until") for r in reasons)
    ChallengeInstance.objects.update(released_at=timezone.now() - timedelta(days=14, minutes=1))
    assert rotation_pick(language="python").template == only


def test_cooldown_is_a_setting(pool):
    only = template()
    released(template=only, days_ago=13, lexicon_key=pool[0])
    config_set(key="rotation.cooldown_days", value=10, by=None, reason="test")
    assert rotation_pick(language="python").template == only


def test_family_limit_two_in_any_seven_days(pool):
    a, b, c = template(family="races"), template(family="races"), template(family="races")
    released(template=a, days_ago=3, lexicon_key=pool[0])
    released(template=b, days_ago=2, lexicon_key=pool[1])
    reasons = blocked_reasons()
    assert any(r.startswith("family concurrency has 2 in the last 7 days") for r in reasons[c.slug])
    ChallengeInstance.objects.filter(template=a).update(released_at=timezone.now() - timedelta(days=7, minutes=1))
    assert rotation_pick(language="python").template == c


def test_one_use_in_the_family_leaves_room(pool):
    a, c = template(family="races"), template(family="races")
    released(template=a, days_ago=1, lexicon_key=pool[0])
    assert rotation_pick(language="python").template == c


def test_domain_not_reused_within_30_days(pool):
    only = template()
    released(template=only, days_ago=20, lexicon_key=pool[7])
    choice = rotation_pick(language="python")
    assert pool[7] not in choice.allowed_lexicon_keys and len(choice.allowed_lexicon_keys) == 49
    ChallengeInstance.objects.update(released_at=timezone.now() - timedelta(days=31))
    assert pool[7] in rotation_pick(language="python").allowed_lexicon_keys


def test_domain_exhaustion_blocks_until_one_frees(pool):
    only = template()
    Lexicon.objects.exclude(key=pool[0]).update(enabled=False)
    config_set(key="rotation.min_lexicon_pool", value=1, by=None, reason="test: tiny pool")
    released(template=only, days_ago=20, lexicon_key=pool[0])
    reasons = blocked_reasons()[only.slug]
    assert any(r.startswith("all 1 domains were used by this template within 30 days") for r in reasons)


def test_stack_not_reused_within_60_days(pool):
    only = template()
    released(template=only, days_ago=40, lexicon_key=pool[0], tech_stack=PY)
    reasons = blocked_reasons()[only.slug]
    assert any("tech-stack combinations were used by this template within 60 days" in r for r in reasons)
    ChallengeInstance.objects.update(released_at=timezone.now() - timedelta(days=61))
    assert rotation_pick(language="python").allowed_stacks == [list(PY)]


def test_other_language_stack_stays_free(pool):
    both = template(languages=("python", "javascript"))
    released(template=both, days_ago=40, lexicon_key=pool[0], tech_stack=PY)
    choice = rotation_pick(language=None)
    assert choice.template == both and choice.allowed_stacks == [list(language_stack("javascript"))]


def test_lexicon_pool_of_at_least_50(pool):
    only = template()
    Lexicon.objects.filter(key=pool[0]).update(enabled=False)
    assert any("naming pool has 49 domain lexicons" in r for r in blocked_reasons()[only.slug])


def test_weight_falls_with_recent_use(pool):
    fresh = template()
    used = template(family="other")
    released(template=used, days_ago=15, lexicon_key=pool[0])
    rows = {row.template.slug: row for row in rotation_calendar()}
    assert rows[fresh.slug].weight == 1.0
    assert 0.5 < rows[used.slug].weight < 0.7  # 1 / (1 + 2 ** (-15 / 30))
    picks = {rotation_pick(language="python", exclude_template_ids=frozenset({fresh.pk})).template for _ in range(3)}
    assert picks == {used}


def test_language_and_exclusions_filter_candidates(pool):
    js = template(languages=("javascript",))
    py = template()
    assert rotation_pick(language="javascript").template == js
    reasons = blocked_reasons(exclude_template_ids=frozenset({py.pk}))
    assert reasons == {js.slug: ["does not support python"],
                       py.slug: ["excluded by the caller (rotated away after collisions)"]}


def test_drafts_and_retired_templates_are_never_picked(pool):
    template(state="draft")
    template(state="retired")
    with pytest.raises(Conflict) as caught:
        rotation_pick(language="python")
    assert "no active templates" in caught.value.message


def test_calendar_names_next_date_and_binding_rule(pool):
    now = timezone.now()
    only = template()
    released(template=only, days_ago=40, lexicon_key=pool[0], tech_stack=PY, now=now)
    row = rotation_calendar(now=now)[0]
    assert not row.eligible and row.binding_rule == "stack_exhausted"
    assert row.next_eligible_at == now - timedelta(days=40) + timedelta(days=60)


def test_engine_lexicons_are_the_pool_before_the_catalogue_is_synced():
    from challenges.engine.lexicons import load_lexicons

    only = template()
    choice = rotation_pick(language="python")
    assert choice.template == only
    assert sorted(choice.allowed_lexicon_keys) == sorted(lex.key for lex in load_lexicons())


def test_calendar_queries_do_not_grow_with_templates(pool, django_assert_num_queries):
    for family in ("a", "b", "c"):
        released(template=template(family=family), days_ago=2, lexicon_key=pool[0])
    with django_assert_num_queries(5):  # settings, templates, history, lexicon pool (exists + keys)
        assert len(rotation_calendar()) == 3
    for family in ("d", "e", "f"):
        released(template=template(family=family), days_ago=2, lexicon_key=pool[1])
    with django_assert_num_queries(5):
        assert len(rotation_calendar()) == 6


def test_a_refresh_flag_lowers_the_pick_weight_and_is_given_as_a_reason(pool):
    only = template()
    only.refresh_flag, only.refresh_note, only.refresh_weight_before, only.weight = (
        "needs_harder", "solve rate above the top tier's band", 1.0, 0.5)
    only.save()
    choice = rotation_pick(language="python")
    assert choice.weight == 0.5
    assert "needs harder variants (quarterly refresh lowered its weight: solve rate above the top tier's band)" in (
        choice.reasons)
