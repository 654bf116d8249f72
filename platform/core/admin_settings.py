"""Admin pages for staff-editable settings: every declared setting, its value, its history."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from core.config import declared, parse_json_text
from core.errors import ValidationFailed
from core.models import AuditEvent, ConfigOverride
from core.services import config_reset, config_set


class SettingForm(forms.Form):
    value = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), help_text="JSON, e.g. 0.7 or [1, 2]")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}))


def settings_list_view(site, request):
    if not request.user.has_perm("core.view_configoverride"):
        raise PermissionDenied
    overrides = dict(ConfigOverride.objects.values_list("key", "value"))
    rows = [
        {
            "key": key,
            "group": setting.group or key.split(".", 1)[0],
            "description": setting.description,
            "default": json.dumps(setting.default),
            "value": json.dumps(overrides.get(key, setting.default)),
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
    form = SettingForm(request.POST or None, initial={"value": json.dumps(current)})
    if request.method == "POST":
        if not can_change:
            raise PermissionDenied
        if "reset" in request.POST:
            reason = request.POST.get("reason", "").strip() or "reset to default"
            config_reset(key=key, by=request.user, reason=reason)
            messages.success(request, f"{key} reset to its default.")
            return redirect("admin:core_settings")
        if form.is_valid():
            try:
                config_set(
                    key=key, value=parse_json_text(form.cleaned_data["value"]), by=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except ValidationFailed as exc:
                form.add_error("value", exc.message)
            else:
                messages.success(request, f"{key} changed.")
                return redirect("admin:core_settings")
    history = AuditEvent.objects.filter(target_type="setting", target_id=key).select_related("actor")[:20]
    context = {
        **site.each_context(request), "title": f"Setting {key}", "setting": setting,
        "default": json.dumps(setting.default), "form": form, "can_change": can_change, "history": history,
    }
    return TemplateResponse(request, "admin/setting_change.html", context)
