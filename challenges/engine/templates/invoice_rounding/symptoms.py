"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    owner, item = ctx.say("owner"), ctx.say("item")
    currency = ctx.lex.unit("amount")
    if bug.site == "payment_cents":
        symptom = Symptom(
            title="Invoices paid in full still show one cent owing",
            action=f"record a payment of exactly the invoice total, for example 4.35 {currency}",
            observed="the invoice stays open with a balance of 0.01",
            expected="Paying the exact total should settle the invoice.",
            steps=("Create an invoice whose total is 4.35", "Post a payment of 4.35 through the API",
                   "The invoice still owes 0.01"),
            example="4.35 is recorded as 4.34",
            impact=f"every {owner} with such an amount gets a reminder for one cent",
            vague="some fully paid invoices remain open for a cent",
            guess="a currency conversion on the payment provider's side",
            log="invoice not settled: balance 0.01 remaining",
        )
    elif bug.site == "parse_body":
        symptom = Symptom(
            title="Totals are a cent short for prices sent through the API",
            action=f"create an invoice line for one {item} at 1.005 {currency} through the API",
            observed="the line total is 1.00, while the same line entered by hand gives 1.01",
            expected="A price of 1.005 should come out as 1.01, the same however it was entered.",
            steps=("Send an invoice line with unit price 1.005 and quantity 1 as JSON",
                   "Read the invoice back: the line total is 1.00"),
            example="1.005 becomes 1.00 over the API but 1.01 in the back office",
            impact="invoices created through the API do not match the printed price list",
            vague="API-created invoices are sometimes a cent below what finance expects",
            guess="a rounding setting in the client library",
            log="total mismatch against price list: -0.01",
        )
    elif ctx.py:
        symptom = Symptom(
            title="Half cents are rounded down on some invoices",
            action=f"invoice {item}s whose line amounts end in exactly half a cent",
            observed="0.125 prints as 0.12 while 0.135 prints as 0.14",
            expected="Half a cent should always round the same way, up to the next cent.",
            steps=("Create a line of 1 at 0.125", "Create a line of 1 at 0.135",
                   "The first rounds down and the second up"),
            example="totals differ from the calculator by a cent on roughly half of such lines",
            impact=f"our {owner} statements disagree with the accounting export",
            vague="totals are sometimes a cent off and we cannot see a pattern",
            guess="the tax rate table being out of date",
            log="reconciliation difference of 0.01",
        )
    else:
        symptom = Symptom(
            title="Invoice totals lose their last cent",
            action=f"invoice a {item} whose amount lands on half a cent or more, such as 1.005",
            observed="the amount is printed as 1.00 and taxes are a cent low",
            expected="Amounts of half a cent or more should round up to the next cent.",
            steps=("Create a line of 1 at 1.005", "Read the line total: 1.00"),
            example="0.999 prints as 0.99",
            impact="we undercharge by a cent on a large share of invoices",
            vague="the monthly revenue is consistently a little below the sum of the orders",
            guess="discounts applied twice",
            log="reconciliation difference of -0.01",
        )
    return replace(bug, symptom=symptom, invariant=("away from zero", "commercial rounding", "halves up"))
