"""Date formats for the English locale: ISO dates, and every time with its zone.

Staff work across time zones; "March 3, 2025, 2:05 p.m." says neither which zone nor
sorts as text. Times render in TIME_ZONE (UTC) as "2025-03-03 14:05 UTC" everywhere
Django formats a datetime (admin lists, read-only fields, ``|date`` without a format).
"""

DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i T"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
TIME_FORMAT = "H:i T"
MONTH_DAY_FORMAT = "F j"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1
# Input formats stay the ISO ones the admin's date widgets already send.
DATE_INPUT_FORMATS = ["%Y-%m-%d"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M", "%Y-%m-%d"]
TIME_INPUT_FORMATS = ["%H:%M:%S", "%H:%M:%S.%f", "%H:%M"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
