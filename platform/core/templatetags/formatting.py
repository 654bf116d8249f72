"""Template filters over ``core.formatting``: ``{% load formatting %}``.

    {{ bout.challenge_total|plural:"challenge" }}   -> "1 challenge" / "3 challenges"
    {{ entries|length|plural:"entry,entries" }}     -> irregular plurals name both forms
    {{ bout.state|article }}                        -> "an active"
    {{ submission.cost_usd|money }}                 -> "$0.06"
    {{ score.points|points }}                       -> "4"
    {{ review.max_similarity|decimal }}             -> "0.734"  (|decimal:2 for two places)
    {{ bout.ends_at|when }}                         -> "2025-03-01 14:05 UTC"
    {{ instance.language|language }}                -> "JavaScript"
"""

from __future__ import annotations

from django import template

from core import formatting

register = template.Library()


@register.filter
def plural(count, forms: str):
    singular, _, plural_form = str(forms).partition(",")
    return formatting.plural(int(count or 0), singular, plural_form or None)


@register.filter
def noun(count, forms: str):
    singular, _, plural_form = str(forms).partition(",")
    return formatting.noun(int(count or 0), singular, plural_form or None)


@register.filter
def article(word):
    return formatting.article(str(word))


@register.filter
def money(value):
    return formatting.money(value)


@register.filter
def points(value):
    return formatting.points(value)


@register.filter
def decimal(value, places=3):
    return formatting.decimal(value, int(places))


@register.filter
def percent(value, places=1):
    return formatting.percent(value, int(places))


@register.filter
def duration(value):
    return formatting.duration(value)


@register.filter
def when(value, precision: str = ""):
    return formatting.when(value, seconds=precision == "seconds")


@register.filter
def language(value):
    return formatting.language(value)


@register.filter
def languages(value):
    return formatting.languages(value)
