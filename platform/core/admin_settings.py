"""Admin pages for staff-editable settings: every declared setting, its value, its history.

Each setting is edited with the input its declaration calls for: a checkbox for a
boolean, a number box with the validator's bounds and step for a number, a choice for a
closed set, a text box (with suggestions) for text, and JSON only for lists and tables.
The declaration's validator stays the one judge of a value; the widget only helps.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from core.config import Setting, declared, parse_json_text
from core.errors import ValidationFailed
from core.models import AuditEvent, ConfigOverride
from core.services import config_reset, config_set


def shown(value: Any) -> str:
    """A setting's value as staff read it: on/off, numbers and text as they are, JSON otherwise."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value if value else "(empty)"
    return json.dumps(value)


def value_field(setting: Setting) -> forms.Field:
    """The form field for ``setting``'s value, by its declared kind, bounds and choices."""
    kind = setting.kind
    minimum, maximum = setting.bounds
    if setting.choices:
        return forms.TypedChoiceField(choices=[(c, shown(c)) for c in setting.choices], coerce=kind)
    if kind is bool:
        return forms.BooleanField(required=False, label="On")
    if kind in (int, float):
        attrs = {"step": "1" if kind is int else "any"}
        if minimum is not None:
            attrs["min"] = minimum
        if maximum is not None:
            attrs["max"] = maximum
        # Bounds go to the browser only; the declaration's validator words the error.
        field_class = forms.IntegerField if kind is int else forms.FloatField
        return field_class(widget=forms.NumberInput(attrs=attrs))
    if kind is str:
        attrs = {"size": 60}
        if setting.suggestions:
            attrs["list"] = f"suggestions-{setting.key}"
        return forms.CharField(required=False, strip=True, widget=forms.TextInput(attrs=attrs))
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), help_text="JSON, e.g. [1, 2]")


class SettingForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
                             help_text="Recorded with the change in the audit log.")

    def __init__(self, *args, setting: Setting, **kwargs):
        super().__init__(*args, **kwargs)
        self.setting = setting
        self.fields = {"value": value_field(setting), **self.fields}

    def clean_value(self) -> Any:
        value = self.cleaned_data["value"]
        if self.setting.kind in (bool, int, float, str) or self.setting.choices:
            return value
        try:
            return parse_json_text(value)
        except ValidationFailed as exc:
            raise forms.ValidationError(exc.message) from exc


def settings_list_view(site, request):
    if not request.user.has_perm("core.view_configoverride"):
        raise PermissionDenied
    overrides = dict(ConfigOverride.objects.values_list("key", "value"))
    rows = [
        {
            "key": key,
            "group": setting.group or key.split(".", 1)[0],
            "description": setting.description,
            "default": shown(setting.default),
            "value": shown(overrides.get(key, setting.default)),
            "overridden": key in overrides,
        }
        for key, setting in declared().items()
    ]
    context = {**site.each_context(request), "title": "Settings", "rows": rows}
    return TemplateResponse(request, "admin/settings_list.html", context)


def setting_change_view(site, request, key):
    setting = declared().get(key)
    if setting is None:
        raise Http404("No such setting.")
    can_change = request.user.has_perm("core.change_configoverride")
    if not request.user.has_perm("core.view_configoverride"):
        raise PermissionDenied
    current = ConfigOverride.objects.filter(key=key).values_list("value", flat=True).first()
    current = setting.default if current is None else current
    initial = json.dumps(current) if setting.kind not in (bool, int, float, str) else current
    form = SettingForm(request.POST or None, initial={"value": initial}, setting=setting)
    if request.method == "POST":
        if not can_change:
            raise PermissionDenied
        if "reset" in request.POST:
            reason = request.POST.get("reason", "").strip() or "reset to default"
            config_reset(key=key, by=request.user, reason=reason)
            messages.success(request, f"Setting {key} reset to its default, {shown(setting.default)}.")
            return redirect("admin:core_settings")
        if form.is_valid():
            try:
                cleaned = config_set(key=key, value=form.cleaned_data["value"], by=request.user,
                                     reason=form.cleaned_data["reason"])
            except ValidationFailed as exc:
                form.add_error("value", exc.message)
            else:
                messages.success(request, f"Setting {key} changed from {shown(current)} to {shown(cleaned)}.")
                return redirect("admin:core_settings")
    history = [
        {"event": event, "before": shown((event.before or {}).get("value")),
         "after": shown((event.after or {}).get("value"))}
        for event in AuditEvent.objects.filter(target_type="setting", target_id=key).select_related("actor")[:20]
    ]
    context = {
        **site.each_context(request), "title": f"Setting {key}", "setting": setting,
        "default": shown(setting.default), "current": shown(current), "form": form, "can_change": can_change,
        "history": history,
    }
    return TemplateResponse(request, "admin/setting_change.html", context)
