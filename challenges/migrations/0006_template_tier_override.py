"""The tier splits into the engine's ``spec_tier`` and staff's ``tier_override``.

Before this, ``template_sync`` rewrote ``tier`` from the code and silently reverted staff
promotions. The old column becomes ``spec_tier``; a staff tier decision still in force
(a ``template.tier_changed`` event newer than any sync that rewrote the tier) is carried
over as the override, so no decision is lost by the split.
"""

import django.db.models.functions.comparison
from django.db import migrations, models


def _carry_staff_tiers(apps, schema_editor):
    Template = apps.get_model("challenges", "ChallengeTemplate")
    AuditEvent = apps.get_model("core", "AuditEvent")
    for template in Template.objects.order_by("pk"):
        events = AuditEvent.objects.filter(
            target_type="challenges.challengetemplate", target_id=str(template.pk),
            verb__in=["template.tier_changed", "template.synced"],
        ).order_by("-occurred_at", "-pk")
        for event in events:
            after = event.after or {}
            if "tier" not in after:
                continue
            if event.verb == "template.tier_changed":
                template.tier_override = after["tier"]
                template.save(update_fields=["tier_override"])
            break


class Migration(migrations.Migration):

    dependencies = [
        ("challenges", "0005_code_signatures"),
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="challengetemplate", name="template_tier_1_to_5"),
        migrations.RenameField(model_name="challengetemplate", old_name="tier", new_name="spec_tier"),
        migrations.AddField(
            model_name="challengetemplate",
            name="tier_override",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(_carry_staff_tiers, migrations.RunPython.noop),
        migrations.AddField(
            model_name="challengetemplate",
            name="tier",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.db.models.functions.comparison.Coalesce("tier_override", "spec_tier"),
                output_field=models.PositiveSmallIntegerField(),
            ),
        ),
        migrations.AddConstraint(
            model_name="challengetemplate",
            constraint=models.CheckConstraint(
                condition=models.Q(("spec_tier__gte", 1), ("spec_tier__lte", 5)), name="template_spec_tier_1_to_5"
            ),
        ),
        migrations.AddConstraint(
            model_name="challengetemplate",
            constraint=models.CheckConstraint(
                condition=models.Q(("tier_override__isnull", True),
                                   models.Q(("tier_override__gte", 1), ("tier_override__lte", 5)), _connector="OR"),
                name="template_tier_override_1_to_5",
            ),
        ),
    ]
