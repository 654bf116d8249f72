"""The competition's staff admin: a thin, permissioned interface over the services.

Every state change (halt, resume, close, rescore, disqualify, score state) is a list
action that leads to a confirmation page asking for a reason; only its POST calls the
service, which records the audit or score event. Rows that record what happened
(submissions, evaluations, attempts, scores, entries) are never added, edited field by
field or deleted here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme

from competition.errors import ApplicationError
from competition.models import (
    Agent,
    AgentKey,
    Attempt,
    Bout,
    BoutChallenge,
    BoutEntry,
    Evaluation,
    Score,
    ScoreEvent,
    Season,
    Submission,
)
from competition.services import agent_key_revoke
from competition.services.bouts import (
    bout_actions_allowed,
    bout_create_from_pool,
    bout_set_live_details,
    bout_transition,
)
from competition.services.evaluation import bout_rescore, challenge_rescore, submissions_rescore
from competition.services.scores import ALLOWED as SCORE_TRANSITIONS
from competition.services.scores import entry_disqualify, score_transition
from competition.services.staff import duration_parse, season_save
from core import formatting
from core.admin_display import short_text
from core.dashboard import Panel, register_panel

# --- shared pieces -------------------------------------------------------------------------


def admin_link(obj: Model | None, text: str | None = None) -> str:
    """A link to ``obj``'s admin page, or plain text when its model has no admin here."""
    if obj is None:
        return "-"
    try:
        url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    except NoReverseMatch:
        return text or str(obj)
    return format_html('<a href="{}">{}</a>', url, text or str(obj))


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}), max_length=2000, label="Reason (staff)",
        help_text="Recorded in the audit log with the change. Competitors do not see it.",
    )


class PublicReasonForm(ReasonForm):
    public_reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "cols": 70}), max_length=300, required=False,
        label="Public reason (shown to competitors)",
    )


@dataclass(frozen=True)
class ReasonAction:
    """A state change confirmed on its own page with a reason.

    ``permission`` names a ``has_<permission>_permission`` method of the ModelAdmin;
    ``apply`` names its method ``(request, queryset, reason, **extra) -> None`` that calls
    the service and reports the outcome with ``message_user``. ``public`` asks also for a
    reason competitors read (``"optional"`` or ``"required"``), passed as ``public_reason``;
    ``public_help`` says where it is shown and what is shown without one.
    """

    title: str
    button: str
    permission: str
    apply: str
    public: str = ""
    public_help: str = ""

    def form(self, data=None) -> forms.Form:
        if not self.public:
            return ReasonForm(data)
        form = PublicReasonForm(data)
        field = form.fields["public_reason"]
        field.required = self.public == "required"
        field.help_text = self.public_help
        return form


Outcome = tuple[list[Model], list[tuple[Model, str]]]


def each(rows: Iterable[Model], call: Callable[[Model], object]) -> Outcome:
    """Call a service per row; a domain refusal of one row never stops the others."""
    done: list[Model] = []
    refused: list[tuple[Model, str]] = []
    for row in rows:
        try:
            call(row)
        except ApplicationError as exc:
            refused.append((row, exc.message))
        else:
            done.append(row)
    return done, refused


def safe_next(request: HttpRequest) -> str | None:
    """The ``next`` page of a confirmation, if it is one of ours."""
    target = request.GET.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()):
        return target
    return None


class ReasonActionsAdmin(admin.ModelAdmin):
    """Adds confirmation pages (``act/<name>/?ids=…``) for the actions in ``reason_actions``.

    A list action only redirects to the page; the page's POST, with a reason, applies the
    change. The page checks the permission itself, so a direct POST without it is a 403.
    ``reason_action_refusal`` says, per row, why an action cannot apply in the row's
    current state: the change page offers only the actions that can, and the confirmation
    page says up front which rows will be refused and why.
    """

    reason_actions: dict[str, ReasonAction] = {}
    # A confirmation page names its rows in the URL; beyond this many, staff filter first.
    reason_action_limit = 500
    change_form_template = "admin/competition/change_form_actions.html"

    def _url_name(self, suffix: str) -> str:
        return f"{self.opts.app_label}_{self.opts.model_name}_{suffix}"

    def get_urls(self):
        view = self.admin_site.admin_view(self.reason_action_view)
        return [path("act/<slug:name>/", view, name=self._url_name("act"))] + super().get_urls()

    def reason_action_url(self, name: str, ids: Iterable[int], *, next_url: str = "") -> str:
        query = {"ids": ",".join(str(pk) for pk in ids)}
        if next_url:
            query["next"] = next_url
        return f"{reverse('admin:' + self._url_name('act'), args=[name])}?{urlencode(query)}"

    def reason_action_refusal(self, name: str, row: Model) -> str | None:
        """Why action ``name`` cannot apply to ``row`` now; None when it can."""
        return None

    def reason_redirect(self, request: HttpRequest, queryset: QuerySet, name: str) -> HttpResponse | None:
        ids = list(queryset.values_list("pk", flat=True)[: self.reason_action_limit + 1])
        if len(ids) > self.reason_action_limit:
            self.message_user(
                request, f"Select at most {self.reason_action_limit} rows for one change; filter the list first.",
                messages.ERROR,
            )
            return None
        return HttpResponseRedirect(self.reason_action_url(name, ids))

    def _permitted(self, request: HttpRequest, spec: ReasonAction) -> bool:
        return getattr(self, f"has_{spec.permission}_permission")(request)

    def reason_action_view(self, request: HttpRequest, name: str) -> HttpResponse:
        spec = self.reason_actions.get(name)
        if spec is None:
            raise Http404("No such action.")
        if not self._permitted(request, spec):
            raise PermissionDenied
        try:
            ids = [int(part) for part in request.GET.get("ids", "").split(",") if part]
        except ValueError as exc:
            raise Http404("Bad selection.") from exc
        back = safe_next(request) or reverse(f"admin:{self._url_name('changelist')}")
        queryset = self.get_queryset(request).filter(pk__in=ids[: self.reason_action_limit])
        rows = list(queryset)
        if not rows:
            self.message_user(request, "Nothing was selected.", messages.WARNING)
            return HttpResponseRedirect(back)
        refusals = {row.pk: self.reason_action_refusal(name, row) for row in rows}
        applicable = [row for row in rows if refusals[row.pk] is None]
        form = spec.form(request.POST or None)
        if request.method == "POST" and applicable and form.is_valid():
            extra = {"public_reason": form.cleaned_data["public_reason"]} if spec.public else {}
            getattr(self, spec.apply)(request, queryset, form.cleaned_data["reason"], **extra)
            return HttpResponseRedirect(back)
        context = {
            **self.admin_site.each_context(request),
            "title": spec.title, "opts": self.opts, "spec": spec, "form": form, "changelist_url": back,
            "rows": [{"row": row, "refusal": refusals[row.pk]} for row in rows],
            "applicable": len(applicable), "count_text": formatting.plural(len(applicable), str(self.opts.verbose_name),
                                                                            str(self.opts.verbose_name_plural)),
        }
        return TemplateResponse(request, "admin/competition/reason_action.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id) if object_id.isdigit() else None
        links = [
            {"label": spec.button, "url": self.reason_action_url(name, [obj.pk])}
            for name, spec in self.reason_actions.items()
            if obj is not None and self._permitted(request, spec) and self.reason_action_refusal(name, obj) is None
        ]
        return super().change_view(request, object_id, form_url, {"reason_links": links, **(extra_context or {})})

    def report(self, request: HttpRequest, refused: list[tuple[Model, str]]) -> None:
        for row, message in refused:
            self.message_user(request, f"{getattr(row, 'handle', None) or row}: {message}", messages.ERROR)


class RecordAdmin(ReasonActionsAdmin):
    """Rows that record what happened: shown, changed only by the actions' services."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return self.fields or [f.name for f in self.opts.fields]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "POST":
            # Field edits would skip the services and their events; changes go through actions.
            raise PermissionDenied
        hide = {"show_save": False, "show_save_and_continue": False, "show_save_and_add_another": False,
                "show_delete": False}
        return super().change_view(request, object_id, form_url, {**hide, **(extra_context or {})})


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    request: HttpRequest | None = None

    def get_formset(self, request, obj=None, **kwargs):
        # Inline instances are made per request (ModelAdmin.get_inline_instances), so keeping
        # the request here is safe; display columns use it to offer only permitted actions.
        self.request = request
        return super().get_formset(request, obj, **kwargs)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def disqualify_link(request: HttpRequest | None, entry: BoutEntry, *, back: str) -> str:
    """A link to disqualify ``entry`` (returning to ``back``), or its state when it cannot be offered."""
    if entry.disqualified_at is not None:
        return format_html("disqualified {}: {}", formatting.when(entry.disqualified_at),
                           entry.disqualified_public_reason or "no public reason")
    if request is None or not request.user.has_perm("competition.disqualify_boutentry"):
        return "entered"
    url = reverse("admin:competition_boutentry_act", args=["disqualify"])
    query = urlencode({"ids": entry.pk, **({"next": back} if back else {})})
    return format_html('<a class="disqualify-link" href="{}?{}">Disqualify…</a>', url, query)


class EntryInline(ReadOnlyInline):
    """Entries with their standing and, for those allowed, a link to disqualify."""

    model = BoutEntry

    @admin.display(description="Joined")
    def joined(self, obj):
        return formatting.when(obj.joined_at)

    @admin.display(description="Standing")
    def standing(self, obj):
        return disqualify_link(self.request, obj, back=self.request.get_full_path() if self.request else "")


class AgentEntryInline(EntryInline):
    """The bouts an agent entered, on its page, each with a link to disqualify it there."""

    fields = ("bout_link", "joined", "standing")
    readonly_fields = fields
    verbose_name_plural = "bouts entered"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("bout")

    @admin.display(description="Bout")
    def bout_link(self, obj):
        return format_html("{} <span class=\"quiet\">{} · {}</span>", admin_link(obj.bout, obj.bout.name),
                           obj.bout.handle, obj.bout.get_state_display().lower())


# --- agents and keys ----------------------------------------------------------------------


class AgentKeyInline(admin.TabularInline):
    model = AgentKey
    extra = 0
    fields = ("prefix", "label", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "model_name", "created_at")
    search_fields = ("name", "owner__username", "model_name")
    readonly_fields = ("public_id", "owner", "created_at")
    inlines = [AgentKeyInline, AgentEntryInline]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AgentKey)
class AgentKeyAdmin(admin.ModelAdmin):
    list_display = ("__str__", "agent", "label", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("prefix", "agent__name", "agent__owner__username")
    readonly_fields = ("agent", "prefix", "label", "created_at", "last_used_at", "revoked_at")
    exclude = ("digest",)
    actions = ["revoke_keys"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Revoke selected keys", permissions=["change"])
    def revoke_keys(self, request, queryset):
        count = 0
        for key in queryset.filter(revoked_at__isnull=True):
            agent_key_revoke(key=key, by=request.user, reason="revoked by staff in the admin")
            count += 1
        self.message_user(
            request, f"{formatting.plural(count, 'key')} revoked.", messages.SUCCESS
        )


# --- seasons and bouts ---------------------------------------------------------------------


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ("name", "starts_at", "ends_at")
        help_texts = {"starts_at": "Date and time in UTC.", "ends_at": "Date and time in UTC."}


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonForm
    list_display = ("name", "starts_at", "ends_at", "bout_count")
    search_fields = ("name",)
    fields = ("name", "starts_at", "ends_at", "created_at")
    readonly_fields = ("created_at",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(bout_total=Count("bouts"))

    @admin.display(description="Bouts", ordering="bout_total")
    def bout_count(self, obj):
        return obj.bout_total

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        season_save(season=obj, by=request.user)


class BoutChallengeInline(ReadOnlyInline):
    model = BoutChallenge
    fields = ("position", "handle_link", "instance_link", "language", "tier")
    readonly_fields = fields

    @admin.display(description="Language")
    def language(self, obj):
        return formatting.language(obj.instance.language)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("instance__template")

    @admin.display(description="Handle")
    def handle_link(self, obj):
        return admin_link(obj, obj.handle)

    @admin.display(description="Instance")
    def instance_link(self, obj):
        return admin_link(obj.instance)

    @admin.display(description="Tier")
    def tier(self, obj):
        return obj.instance.tier


class BoutEntryInline(EntryInline):
    fields = ("entry_link", "joined", "standing")
    readonly_fields = fields
    verbose_name_plural = "entries"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("agent__owner")

    @admin.display(description="Agent")
    def entry_link(self, obj):
        return format_html("{} <span class=\"quiet\">({})</span>", admin_link(obj, obj.agent.name),
                           obj.agent.owner.get_username())


class BoutOpenForm(forms.Form):
    count = forms.IntegerField(min_value=1, label="Challenges", help_text="Released instances, least used first.")
    name = forms.CharField(max_length=120)
    duration = forms.CharField(initial="2h", max_length=20, help_text="For example 90m, 2h, 1d or 1h30m.")


_SHOWN_ON_THE_BOUT_PAGE = "Shown on the bout's public page."


@admin.register(Bout)
class BoutAdmin(RecordAdmin):
    list_display = ("handle", "name", "state", "starts_at", "ends", "challenge_count", "entry_count",
                    "live_details")
    list_filter = ("state", "season", "live_details_public")
    search_fields = ("handle", "name")
    date_hierarchy = "starts_at"
    fields = ("handle", "name", "season", "state", "state_reason", "public_reason", "starts_at", "ends_at",
              "closed_at", "scoring_format", "format_config", "attempts_per_challenge", "attempt_minutes",
              "submissions_per_attempt", "submissions_per_day", "concurrent_evaluations", "live_details_public",
              "created_by", "created_at")
    inlines = [BoutChallengeInline, BoutEntryInline]
    actions = ["halt_bouts", "resume_bouts", "close_bouts", "rescore_bouts", "show_live_details", "hide_live_details"]
    reason_actions = {
        "halt": ReasonAction("Halt bouts", "Halt", "change", "apply_halt", public="optional",
                             public_help=_SHOWN_ON_THE_BOUT_PAGE + " Without one it says the organisers halted it."),
        "resume": ReasonAction("Resume bouts", "Resume", "change", "apply_resume"),
        "close": ReasonAction("Close bouts", "Close", "change", "apply_close", public="optional",
                              public_help=_SHOWN_ON_THE_BOUT_PAGE + " Worth giving when closing early."),
        "rescore": ReasonAction("Rescore bouts", "Rescore", "change", "apply_rescore"),
        "show_details": ReasonAction("Show per-challenge times while live", "Show per-challenge times while live",
                                     "change", "apply_show_details"),
        "hide_details": ReasonAction("Hide per-challenge times while live", "Hide per-challenge times while live",
                                     "change", "apply_hide_details"),
    }

    @admin.display(description="Ends", ordering="ends_at")
    def ends(self, obj):
        if obj.closed_at is not None:
            return f"closed {formatting.when(obj.closed_at)}"
        return formatting.when(obj.ends_at)

    @admin.display(description="Live times public", boolean=True, ordering="live_details_public")
    def live_details(self, obj):
        return obj.live_details_public

    def reason_action_refusal(self, name, row):
        if name in ("halt", "resume", "close"):
            allowed = bout_actions_allowed(row)
            if name in allowed:
                return None
            state = formatting.article(row.get_state_display().lower()).capitalize()
            return f"{state} bout cannot {name}" + (f"; it can {' or '.join(allowed)}" if allowed else "")
        if name == "show_details":
            return "per-challenge times are already public while it runs" if row.live_details_public else None
        if name == "hide_details":
            return None if row.live_details_public else "per-challenge times are already hidden while it runs"
        return None

    def get_queryset(self, request):
        return (
            super().get_queryset(request).select_related("season")
            .annotate(challenge_total=Count("challenges", distinct=True), entry_total=Count("entries", distinct=True))
        )

    def has_add_permission(self, request):
        # Adding is allowed: it opens a bout through the service (see add_view).
        return admin.ModelAdmin.has_add_permission(self, request)

    @admin.display(description="Challenges", ordering="challenge_total")
    def challenge_count(self, obj):
        return obj.challenge_total

    @admin.display(description="Entries", ordering="entry_total")
    def entry_count(self, obj):
        return obj.entry_total

    def add_view(self, request, form_url="", extra_context=None):
        """Adding a bout opens one now from the released pool (the create_bout service)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = BoutOpenForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                duration = duration_parse(data["duration"])
                bout = bout_create_from_pool(count=data["count"], name=data["name"], duration=duration, by=request.user)
            except ApplicationError as exc:
                form.add_error("duration" if exc.code == "duration_invalid" else None, exc.message)
            else:
                count = data["count"]
                self.message_user(request, f"Bout {bout.handle} opened with {formatting.plural(count, 'challenge')}.",
                                  messages.SUCCESS)
                return HttpResponseRedirect(reverse(f"admin:{self._url_name('change')}", args=[bout.pk]))
        context = {**self.admin_site.each_context(request), "title": "Open a bout", "opts": self.opts, "form": form}
        return TemplateResponse(request, "admin/competition/bout_open.html", context)

    @admin.action(description="Halt selected bouts…", permissions=["change"])
    def halt_bouts(self, request, queryset):
        return self.reason_redirect(request, queryset, "halt")

    @admin.action(description="Resume selected bouts…", permissions=["change"])
    def resume_bouts(self, request, queryset):
        return self.reason_redirect(request, queryset, "resume")

    @admin.action(description="Close selected bouts…", permissions=["change"])
    def close_bouts(self, request, queryset):
        return self.reason_redirect(request, queryset, "close")

    @admin.action(description="Rescore selected bouts…", permissions=["change"])
    def rescore_bouts(self, request, queryset):
        return self.reason_redirect(request, queryset, "rescore")

    @admin.action(description="Show per-challenge times while live…", permissions=["change"])
    def show_live_details(self, request, queryset):
        return self.reason_redirect(request, queryset, "show_details")

    @admin.action(description="Hide per-challenge times while live…", permissions=["change"])
    def hide_live_details(self, request, queryset):
        return self.reason_redirect(request, queryset, "hide_details")

    def _transition(self, request, queryset, reason: str, action: str, public_reason: str = "") -> list[Model]:
        done, refused = each(queryset, lambda bout: bout_transition(bout=bout, action=action, by=request.user,
                                                                    reason=reason, public_reason=public_reason))
        self.report(request, refused)
        return done

    def apply_halt(self, request, queryset, reason, public_reason=""):
        if n := len(self._transition(request, queryset, reason, "halt", public_reason)):
            self.message_user(request, f"{formatting.plural(n, 'bout')} halted.", messages.SUCCESS)

    def apply_resume(self, request, queryset, reason):
        if n := len(self._transition(request, queryset, reason, "resume")):
            self.message_user(request, f"{formatting.plural(n, 'bout')} resumed.", messages.SUCCESS)

    def apply_close(self, request, queryset, reason, public_reason=""):
        if n := len(self._transition(request, queryset, reason, "close", public_reason)):
            self.message_user(request, f"{formatting.plural(n, 'bout')} closed.", messages.SUCCESS)

    def _live_details(self, request, queryset, reason: str, public: bool) -> None:
        done, refused = each(queryset, lambda bout: bout_set_live_details(bout=bout, public=public, by=request.user,
                                                                          reason=reason))
        self.report(request, refused)
        if n := len(done):
            shown = "public" if public else "hidden"
            self.message_user(request, f"Per-challenge times are now {shown} while {formatting.plural(n, 'bout')} "
                                       f"{formatting.noun(n, 'runs', 'run')}.", messages.SUCCESS)

    def apply_show_details(self, request, queryset, reason):
        self._live_details(request, queryset, reason, True)

    def apply_hide_details(self, request, queryset, reason):
        self._live_details(request, queryset, reason, False)

    def apply_rescore(self, request, queryset, reason):
        queued = 0

        def rescore(bout):
            nonlocal queued
            queued += bout_rescore(bout=bout, by=request.user, reason=reason)

        done, refused = each(queryset, rescore)
        self.report(request, refused)
        if n := len(done):
            self.message_user(request, f"{formatting.plural(n, 'bout')} sent for rescoring "
                                       f"({formatting.plural(queued, 'submission')} queued).", messages.SUCCESS)


@admin.register(BoutChallenge)
class BoutChallengeAdmin(RecordAdmin):
    list_display = ("handle", "bout", "position", "instance_link", "tier", "solve_count")
    list_filter = ("bout__state", "bout")
    search_fields = ("handle", "bout__handle", "bout__name")
    fields = ("handle", "bout", "position", "instance_link", "tier", "solve_count")
    actions = ["rescore_challenges"]
    reason_actions = {"rescore": ReasonAction("Rescore challenges", "Rescore", "change", "apply_rescore")}

    def get_queryset(self, request):
        return (
            super().get_queryset(request).select_related("bout", "instance__template")
            .annotate(solve_total=Count("scores", distinct=True))
        )

    @admin.display(description="Instance")
    def instance_link(self, obj):
        return admin_link(obj.instance)

    @admin.display(description="Tier", ordering="instance__tier")
    def tier(self, obj):
        return obj.instance.tier

    @admin.display(description="Scores", ordering="solve_total")
    def solve_count(self, obj):
        return obj.solve_total

    @admin.action(description="Rescore selected challenges…", permissions=["change"])
    def rescore_challenges(self, request, queryset):
        return self.reason_redirect(request, queryset, "rescore")

    def apply_rescore(self, request, queryset, reason):
        queued = 0

        def rescore(challenge):
            nonlocal queued
            queued += challenge_rescore(challenge=challenge, by=request.user, reason=reason)

        done, refused = each(queryset, rescore)
        self.report(request, refused)
        if n := len(done):
            self.message_user(request, f"{formatting.plural(n, 'challenge')} sent for rescoring "
                                       f"({formatting.plural(queued, 'submission')} queued).", messages.SUCCESS)


@admin.register(BoutEntry)
class BoutEntryAdmin(RecordAdmin):
    list_display = ("agent", "bout", "joined_at", "disqualified_at", "staff_reason", "public_reason")
    list_filter = (("disqualified_at", admin.EmptyFieldListFilter), "bout")
    search_fields = ("agent__name", "agent__owner__username", "bout__handle", "bout__name")
    fields = ("agent", "bout", "joined_at", "disqualified_at", "disqualified_reason", "disqualified_public_reason")
    list_select_related = ("agent", "bout")
    actions = ["disqualify_entries"]
    reason_actions = {"disqualify": ReasonAction(
        "Disqualify agents", "Disqualify", "disqualify", "apply_disqualify", public="required",
        public_help="Shown to the agent's owner in the portal and in its score history; the staff reason is not.",
    )}

    def has_disqualify_permission(self, request) -> bool:
        return request.user.has_perm("competition.disqualify_boutentry")

    @admin.display(description="Staff reason")
    def staff_reason(self, obj):
        return short_text(obj.disqualified_reason, 50)

    @admin.display(description="Public reason")
    def public_reason(self, obj):
        return short_text(obj.disqualified_public_reason, 50)

    def reason_action_refusal(self, name, row):
        if name == "disqualify" and row.disqualified_at is not None:
            return f"already disqualified on {formatting.when(row.disqualified_at)}"
        return None

    @admin.action(description="Disqualify selected agents from their bouts…", permissions=["disqualify"])
    def disqualify_entries(self, request, queryset):
        return self.reason_redirect(request, queryset, "disqualify")

    def apply_disqualify(self, request, queryset, reason, public_reason=""):
        already = [entry for entry in queryset if entry.disqualified_at is not None]
        done, refused = each(
            queryset.filter(disqualified_at__isnull=True),
            lambda entry: entry_disqualify(entry=entry, by=request.user, reason=reason, public_reason=public_reason),
        )
        self.report(request, refused)
        if n := len(done):
            whose = "its scores are" if n == 1 else "their scores are"
            self.message_user(request, f"{formatting.plural(n, 'agent')} disqualified; {whose} invalidated.",
                              messages.SUCCESS)
        if n := len(already):
            self.message_user(request, f"{formatting.plural(n, 'agent')} {formatting.noun(n, 'was')} already "
                                       "disqualified.", messages.WARNING)


# --- attempts, submissions, evaluations ---------------------------------------------------


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("handle", "agent", "challenge", "number", "state", "started_at", "expires_at")
    list_filter = ("state", "challenge__bout")
    search_fields = ("handle", "workspace_name", "entry__agent__name", "challenge__handle")
    list_select_related = ("entry__agent", "challenge__bout")
    fields = ("handle", "workspace_name", "entry", "challenge", "number", "state", "started_at", "expires_at")
    readonly_fields = fields

    @admin.display(description="Agent", ordering="entry__agent__name")
    def agent(self, obj):
        return obj.entry.agent

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def verdict_table(evaluation: Evaluation) -> str:
    """Per-test verdicts of the hidden oracle and why the judge decided so, for staff only
    (agents see counts). Details come from the sandbox: bounded there, escaped here."""
    if not evaluation.verdicts:
        return "-"
    judged = (evaluation.judgement or {}).get("tests", {})
    rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", (
        (test, verdict, str(judged.get(test, {}).get("detail", ""))[:600])
        for test, verdict in sorted(evaluation.verdicts.items())))
    notes = (evaluation.judgement or {}).get("notes") or []
    shown = format_html('<table class="verdicts">{}</table>', rows)
    if notes:
        shown += format_html("<p>Notes: {}</p>", "; ".join(str(n)[:300] for n in notes[:10]))
    return shown


def verdict_label(submission: Submission) -> str:
    """Where a submission stands, in one word or two: queued, evaluating, then its result."""
    if submission.result == Submission.Result.PENDING:
        return "evaluating" if submission.state == Submission.State.RUNNING else "queued"
    return submission.get_result_display().lower()


class EvaluationInline(ReadOnlyInline):
    model = Evaluation
    fields = ("started_at", "finished_at", "trigger", "requested_by", "result", "reason", "wall_time", "verdicts_shown")
    readonly_fields = fields

    @admin.display(description="Wall time")
    def wall_time(self, obj):
        return formatting.duration(obj.wall_seconds)

    @admin.display(description="Per-test verdicts")
    def verdicts_shown(self, obj):
        return verdict_table(obj)


@admin.register(Submission)
class SubmissionAdmin(RecordAdmin):
    # Narrow columns so the list fits a 1,400 px screen: state and result in one verdict,
    # the reason cut short (whole in its tooltip and on the submission's page).
    list_display = ("handle", "agent", "challenge", "verdict", "reason_short", "tests", "received_at",
                    "server_solve_seconds")
    list_filter = ("state", "result", "attempt__challenge__bout")
    search_fields = ("handle", "agent__name", "attempt__handle", "patch_sha256")
    list_select_related = ("agent", "attempt__challenge")
    date_hierarchy = "received_at"
    fields = (
        "handle", "agent", "attempt", "state", "result", "result_reason", "tests_passed", "tests_failed",
        "received_at", "server_solve_seconds", "claimed_time", "evaluation_started_at",
        "evaluation_finished_at", "evaluation_tries", "tokens", "cost", "idempotency_key", "patch_sha256",
        "patch_shown", "trace",
    )

    @admin.display(description="Challenge", ordering="attempt__challenge__handle")
    def challenge(self, obj):
        return obj.attempt.challenge.handle

    @admin.display(description="Verdict", ordering="result")
    def verdict(self, obj):
        return verdict_label(obj)

    @admin.display(description="Reason")
    def reason_short(self, obj):
        return short_text(obj.result_reason)

    @admin.display(description="Cost (reported)")
    def cost(self, obj):
        return formatting.money(obj.cost_usd, empty="not reported")

    @admin.display(description="Claimed time (shown only)")
    def claimed_time(self, obj):
        return formatting.duration(obj.claimed_elapsed_seconds, empty="not reported")
    inlines = [EvaluationInline]
    actions = ["rescore_submissions"]
    reason_actions = {"rescore": ReasonAction("Rescore submissions", "Rescore", "change", "apply_rescore")}

    @admin.display(description="Tests passed/failed")
    def tests(self, obj):
        if obj.tests_passed is None:
            return "—"
        return f"{obj.tests_passed}/{obj.tests_failed}"

    @admin.display(description="Server time")
    def server_solve_seconds(self, obj):
        return formatting.duration(obj.solve_seconds)

    @admin.display(description="Patch")
    def patch_shown(self, obj):
        return format_html("<pre>{}</pre>", obj.patch)

    @admin.action(description="Rescore selected submissions…", permissions=["change"])
    def rescore_submissions(self, request, queryset):
        return self.reason_redirect(request, queryset, "rescore")

    def apply_rescore(self, request, queryset, reason):
        pending = queryset.exclude(state=Submission.State.DONE).count()
        finished = queryset.filter(state=Submission.State.DONE)
        n = submissions_rescore(submissions=finished, by=request.user, reason=reason) if finished.exists() else 0
        if n:
            self.message_user(request, f"{formatting.plural(n, 'submission')} queued for rescoring.", messages.SUCCESS)
        if pending:
            self.message_user(request, f"{formatting.plural(pending, 'submission')} {formatting.noun(pending, 'is')} "
                                       f"still being evaluated and {formatting.noun(pending, 'was')} not rescored.",
                              messages.WARNING)


@admin.register(Evaluation)
class EvaluationAdmin(admin.ModelAdmin):
    list_display = ("submission", "trigger", "result", "reason_short", "started_at", "finished_at", "wall_time")
    list_filter = ("result", "trigger", "finished_at")
    search_fields = ("submission__handle", "reason")
    list_select_related = ("submission",)
    fields = ("submission", "trigger", "requested_by", "started_at", "finished_at", "result", "reason",
              "wall_time", "verdicts_shown")
    readonly_fields = fields

    @admin.display(description="Reason")
    def reason_short(self, obj):
        return short_text(obj.reason)

    @admin.display(description="Wall time", ordering="wall_seconds")
    def wall_time(self, obj):
        return formatting.duration(obj.wall_seconds)

    @admin.display(description="Per-test verdicts")
    def verdicts_shown(self, obj):
        return verdict_table(obj)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- scores ----------------------------------------------------------------------------------


class ScoreEventInline(ReadOnlyInline):
    model = ScoreEvent
    fields = ("occurred_at", "transition", "points", "who", "reason")
    readonly_fields = fields

    @admin.display(description="State")
    def transition(self, obj):
        return f"{obj.from_state or '-'} → {obj.to_state}"

    @admin.display(description="Points")
    def points(self, obj):
        return f"{formatting.points(obj.points_before)} → {formatting.points(obj.points_after)}"

    @admin.display(description="Actor")
    def who(self, obj):
        return obj.actor or obj.actor_label or "system"


@admin.register(Score)
class ScoreAdmin(RecordAdmin):
    list_display = ("score", "agent", "bout", "challenge_handle", "points_shown", "solve_time", "state", "updated_at")
    list_filter = ("state", "entry__bout")
    search_fields = ("entry__agent__name", "challenge__handle", "submission__handle", "entry__bout__handle")
    list_select_related = ("entry__agent", "entry__bout", "challenge__bout")
    fields = ("entry", "challenge", "submission", "points_shown", "solve_time", "state", "updated_at")
    inlines = [ScoreEventInline]
    actions = ["mark_under_review", "mark_final", "invalidate"]
    reason_actions = {
        "under_review": ReasonAction("Put scores under review", "Mark under review", "change", "apply_under_review"),
        "final": ReasonAction("Make scores final", "Mark final", "change", "apply_final"),
        "invalidate": ReasonAction("Invalidate scores", "Invalidate", "change", "apply_invalidate"),
    }

    def get_queryset(self, request):
        # The confirmation page names every selected score, so load what its name needs.
        return super().get_queryset(request).select_related(*self.list_select_related)

    @admin.display(description="Score", ordering="pk")
    def score(self, obj):
        return f"score {obj.pk}"

    @admin.display(description="Agent", ordering="entry__agent__name")
    def agent(self, obj):
        return obj.entry.agent

    @admin.display(description="Bout", ordering="entry__bout__starts_at")
    def bout(self, obj):
        return obj.entry.bout

    @admin.display(description="Challenge", ordering="challenge__handle")
    def challenge_handle(self, obj):
        return obj.challenge.handle

    @admin.display(description="Points", ordering="points")
    def points_shown(self, obj):
        return formatting.points(obj.points)

    @admin.display(description="Solve time (server)", ordering="solve_seconds")
    def solve_time(self, obj):
        return formatting.duration(obj.solve_seconds)

    def reason_action_refusal(self, name, row):
        target = {"under_review": Score.State.UNDER_REVIEW, "final": Score.State.FINAL,
                  "invalidate": Score.State.INVALIDATED}[name]
        if row.state == target:
            return f"already {row.get_state_display().lower()}"
        if target not in SCORE_TRANSITIONS[row.state]:
            return f"{formatting.article(row.get_state_display().lower())} score cannot become {target.label.lower()}"
        return None

    @admin.action(description="Mark selected scores under review…", permissions=["change"])
    def mark_under_review(self, request, queryset):
        return self.reason_redirect(request, queryset, "under_review")

    @admin.action(description="Mark selected scores final…", permissions=["change"])
    def mark_final(self, request, queryset):
        return self.reason_redirect(request, queryset, "final")

    @admin.action(description="Invalidate selected scores…", permissions=["change"])
    def invalidate(self, request, queryset):
        return self.reason_redirect(request, queryset, "invalidate")

    def _transition(self, request, queryset, reason: str, to_state: str) -> int:
        unchanged = [score for score in queryset if score.state == to_state]
        done, refused = each(
            queryset.exclude(state=to_state),
            lambda score: score_transition(score=score, to_state=to_state, by=request.user, reason=reason),
        )
        self.report(request, refused)
        if n := len(unchanged):
            label = Score.State(to_state).label.lower()
            self.message_user(request, f"{formatting.plural(n, 'score')} {formatting.noun(n, 'was')} already {label}.",
                              messages.WARNING)
        return len(done)

    def apply_under_review(self, request, queryset, reason):
        if n := self._transition(request, queryset, reason, Score.State.UNDER_REVIEW):
            self.message_user(request, f"{formatting.plural(n, 'score')} put under review.", messages.SUCCESS)

    def apply_final(self, request, queryset, reason):
        if n := self._transition(request, queryset, reason, Score.State.FINAL):
            self.message_user(request, f"{formatting.plural(n, 'score')} made final.", messages.SUCCESS)

    def apply_invalidate(self, request, queryset, reason):
        if n := self._transition(request, queryset, reason, Score.State.INVALIDATED):
            self.message_user(request, f"{formatting.plural(n, 'score')} invalidated.", messages.SUCCESS)


# --- dashboard -------------------------------------------------------------------------------

# How far back the panel counts failed evaluations.
FAILED_EVALUATION_WINDOW = timedelta(hours=24)


def competition_panel(request: HttpRequest) -> dict:
    since = timezone.now() - FAILED_EVALUATION_WINDOW
    failed = Evaluation.objects.filter(result=Submission.Result.ERROR, finished_at__gte=since)
    return {
        "active_bouts": list(
            Bout.objects.filter(state=Bout.State.ACTIVE).annotate(challenge_total=Count("challenges"))
            .order_by("ends_at")[:10]
        ),
        "active_total": Bout.objects.filter(state=Bout.State.ACTIVE).count(),
        "queued": Submission.objects.filter(state=Submission.State.QUEUED).count(),
        "running": Submission.objects.filter(state=Submission.State.RUNNING).count(),
        "failed": failed.count(),
        "failed_hours": int(FAILED_EVALUATION_WINDOW.total_seconds() // 3600),
        "failed_query": urlencode({"result__exact": Submission.Result.ERROR, "finished_at__gte": since.isoformat()}),
    }


register_panel(
    Panel(
        key="competition",
        title="Competition",
        template="admin/panels/competition.html",
        context=competition_panel,
        permission="competition.view_bout",
        order=20,
    )
)
