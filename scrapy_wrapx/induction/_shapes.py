"""Names a value's own shape gives: an e-mail address, a telephone number,
a web address, a postal address, a price (a sum with its currency).
Contact data often sits in a block whose class words name the block
(``main_address``, ``contact``), or in none, with no label of its own;
every reader still calls ``(325) 674-2000`` a phone. A field whose
every seed value has one of these shapes is named after it, unless a label,
semantic markup or its class words already say that (``phone_main``).

A street address (a number, a name, a street word such as "Road" or
"Ave.") and a US city line ("Garland, TX 75041") are named so too, the
two on one line ("612 Harrison Ave, Leadville, CO") an ``address``, a US
place ("Boston, MA") is a ``location`` and a calendar date a ``date``.

The shapes are strict so that look-alikes keep their names: a phone has
two or three groups of digits with separators between them (an ISBN
``978-0316125581``, a date ``2010-11-05`` or a price has not: a date is a
``date``); a web
address starts with ``www.`` or a scheme, or is a lowercase host with a
top-level domain of letters (``acu.edu``; ``3.0`` and ``Mr.Smith`` are not).
The patterns have no nested repetition: matching is linear in the value.

>>> value_role([["(325) 674-2000"], ["800.460.6228"]])
'phone'
>>> value_role([["www.acu.edu"], ["http://www.pepperdine.edu/"]])
'website'
>>> value_role([["info@admissions.acu.edu"]]), value_role([["978-0316125581"]])
('email', '')
>>> value_role([["2010-11-05"]]), value_role([["3.0"]]), value_role([["Mr.Smith"]])
('date', '', '')
>>> value_role([["915 West Centerville Road"], ["1336 North Galloway Ave., Suite 4"]])
'street_address'
>>> value_role([["915 W Centerville Rd"], ["1600 Pennsylvania Avenue NW"], ["1336 North Galloway"]])
'street_address'
>>> value_role([["2045 North Hwy 360"], ["6800 Snider Plaza"], ["88 Route 9 N"]])
'street_address'
>>> value_role([["Garland, TX 75041"]]), value_role([["12 Angry Men"]]), value_role([["2 Way Street Blues"]])
('city_state_zip', '', '')
>>> value_role([["$349.00"], ["$1,268.00"]]), value_role([["12,50 EUR"]]), value_role([["349.00"]])
('price', 'price', '')
>>> value_role([["$32,620 \u2013 $34,620"]]), value_role([["$5 off"]])
('price', '')
>>> value_role([["Boston, MA"], ["Garland, TX"]]), value_role([["Doe, JR"]])
('location', '')
>>> value_role([["12/05/2010"], ["Dec 5, 2010"], ["5 December 2010"]]), value_role([["2010"]])
('date', '')
>>> value_role([["612 Harrison Ave, Leadville, CO"], ["10 Main St., Boston, MA 02110"]])
'address'
>>> value_role([["1600 Pennsylvania Avenue NW, Washington, DC 20500"]])
'address'
>>> value_role([["1336 North Galloway Ave., Suite 4, Mesquite, TX 75149"]])
'address'
>>> value_role([["12 Angry Men, Boston, MA"]]), value_role([["3 Doors Down, Live in Texas"]])
('', '')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: No value of these shapes is longer (and longer texts are not tried).
MAX_CHARS = 100
#: A currency sign or code.
_CURRENCY = r"(?:[$\u20ac\u00a3\u00a5]|US\$|USD|EUR|GBP|CAD|AUD)"
#: A sum of money: a currency before or after a number, its thousands
#: grouped or not, two decimals at most ("$1,349.00", "1450.55 USD").
_MONEY = r"(?:\d{1,3}(?:[,. ]\d{3})+|\d{1,9})(?:[.,]\d{1,2})?"
_AMOUNT = rf"(?:{_CURRENCY} ?{_MONEY}|{_MONEY} ?{_CURRENCY})"
#: The postal codes of the US states and DC: "Garland, TX" is a place.
_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT"
    "|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]{0,6}\.?"
#: A calendar date: 12/05/2010, 2010-12-05, Dec 5, 2010, 5 December 2010.
_DATE = (
    r"(?:\d{1,2}/\d{1,2}/(?:\d{2}|\d{4})|\d{4}-\d{2}-\d{2}"
    rf"|{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}|\d{{1,2}} {_MONTH},? \d{{4}})"
)
#: A US city line: "Garland, TX 75041" (a place, with its ZIP code).
_CITY_LINE = re.compile(r"[A-Z][\w.' -]{1,40}, [A-Z]{2} \d{5}(?:-\d{4})?")
#: A street line: a house number, the street's name and a street word,
#: then a number, a direction or a suite ("1336 North Galloway Ave., Suite 4").
_STREET_LINE = re.compile(
    r"\d{1,6}[A-Za-z]?(?:-\d{1,6})? [\w.' -]{1,60}? "
    r"(?:Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct"
    r"|Place|Pl|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Terrace|Ter|Trail|Square|Sq"
    r"|Plaza|Loop|Pike|Row|Alley|Route|Rte|Freeway|Fwy|Expressway|Expy)\.?"
    r"(?: \d{1,4})?(?: (?:N|S|E|W|NE|NW|SE|SW)\.?)?"
    r"(?:,? (?:Suite|Ste|Unit|Apt|#)\.? ?[\w-]{1,8})?"
)
#: Where a one-line address may turn from its street to its place.
_COMMA = re.compile(", ")
_SHAPES = (
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    (
        "phone",
        re.compile(
            r"(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}"
            r"(?: ?(?:x|ext\.?) ?\d{1,5})?"
        ),
    ),
    ("street_address", _STREET_LINE),
    ("city_state_zip", _CITY_LINE),
    ("date", re.compile(_DATE)),
    ("price", re.compile(rf"{_AMOUNT}(?: ?[-\u2013] ?{_AMOUNT})?")),
    (
        "website",
        re.compile(
            r"(?:(?:https?://|www\.)[\w.-]+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,6})(?:/\S*)?"
        ),
    ),
)


def value_role(values: Sequence[list[str]]) -> str:
    """The shape every non-empty value of the field (one list per seed
    page) has, or ``""``."""
    texts = [text.strip() for page in values for text in page if text.strip()]
    if not texts or any(len(text) > MAX_CHARS for text in texts):
        return ""
    for role, pattern in _SHAPES:
        if all(pattern.fullmatch(text) for text in texts):
            return role
        if role == "street_address" and _street_lines(texts):
            return role
        if role == "city_state_zip" and all(is_place(text) for text in texts):
            return "location"
    if _full_addresses(texts):
        return "address"
    return ""


def _full_addresses(texts: list[str]) -> bool:
    """Whether ``texts`` are postal addresses on one line: a street line
    (:func:`value_role`'s ``street_address``), a comma, and the place
    ("612 Harrison Ave, Leadville, CO", "10 Main St., Boston, MA 02110").
    A title with a number and a town in it is none: its street part has
    no street word, or it names no state or country."""
    streets: list[str] = []
    for text in texts:
        # The place is what follows one of the commas ("..., Suite 160,
        # St. Paul, MN": the street line has one of its own).
        cuts = [
            text[: comma.start()]
            for comma in _COMMA.finditer(text)
            if _is_place_line(text[comma.end() :])
        ]
        if not cuts:
            return False
        streets.append(next((cut for cut in cuts if _STREET_LINE.fullmatch(cut)), cuts[0]))
    return all(_STREET_LINE.fullmatch(street) for street in streets) or _street_lines(streets)


def _is_place_line(text: str) -> bool:
    return bool(_CITY_LINE.fullmatch(text)) or is_place(text)


#: A line that opens with a house number, then capitalized words: the
#: shape of a street line, with or without its street word.
_NUMBERED_LINE = re.compile(
    r"\d{1,6}[A-Za-z]?(?:-\d{1,6})? [A-Z][\w.'-]*(?: [A-Z0-9#][\w.'#-]*){0,5}"
)


def _street_lines(texts: list[str]) -> bool:
    """Whether ``texts`` are street lines, most of them with their street
    word ("915 West Centerville Road") and the others without one ("1336
    North Galloway": the street a seed names by its name alone). A line
    of words that merely holds a street word ("2 Way Street Blues") is
    none, nor are titles that open with a number and never end in one."""
    if not all(_NUMBERED_LINE.fullmatch(text) for text in texts):
        return False
    return 2 * sum(1 for text in texts if _STREET_LINE.fullmatch(text)) > len(texts)


#: The US states by name, and countries (with the short forms job and
#: shop sites write): the part of a place that says where it is.
_STATE_NAMES = frozenset(
    {
        "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
        "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
        "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
        "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana",
        "Nebraska", "Nevada", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Tennessee",
        "Texas", "Utah", "Vermont", "Virginia", "Washington", "Wisconsin", "Wyoming",
        "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina",
        "North Dakota", "Rhode Island", "South Carolina", "South Dakota", "West Virginia",
        "District of Columbia",
    }
)  # fmt: skip
_COUNTRIES = frozenset(
    {
        "United States", "United States of America", "USA", "US", "U.S.", "U.S.A.",
        "Canada", "Mexico", "United Kingdom", "UK", "England", "Scotland", "Wales",
        "Ireland", "France", "Germany", "Spain", "Portugal", "Italy", "Netherlands",
        "Belgium", "Switzerland", "Austria", "Sweden", "Norway", "Denmark", "Finland",
        "Poland", "Greece", "Turkey", "Russia", "China", "Japan", "India", "Singapore",
        "Australia", "New Zealand", "Brazil", "Argentina", "South Africa", "Israel",
    }
)  # fmt: skip
_STATE_CODES = frozenset(_STATES.split("|"))
#: What the last part of a place says: where it is.
_WHERE = _STATE_CODES | _STATE_NAMES | _COUNTRIES
#: A place's name: capitalized words ("New Bedford", "St. Paul", "O'Fallon").
_PLACE_NAME = re.compile(r"[A-Z][\w.'-]*(?: [\w.'-]+){0,4}")
#: "US-MA-New Bedford": a country's and a state's code before a city.
_CODED_PLACE = re.compile(rf"[A-Z]{{2,3}}-(?:{_STATES})-[A-Z][\w.' -]{{1,40}}")


def is_place(text: str) -> bool:
    """Whether ``text`` is a place as sites write one: a city with its
    state or country after it ("Garland, TX", "Tampa, Florida", "Plano,
    Texas, United States", "Irving,United States"), the country first
    ("United States, Texas, Dallas"), or in codes ("US-MA-New Bedford").
    A name before a word that is no state or country ("Doe, John") is
    none.

    >>> [is_place(t) for t in ("Garland, TX", "Tampa, Florida", "Plano, Texas, United States")]
    [True, True, True]
    >>> [is_place(t) for t in ("Irving,United States", "United States, Texas, Dallas")]
    [True, True]
    >>> [is_place(t) for t in ("US-MA-New Bedford", "Doe, John", "Smith, Jones", "Texas")]
    [True, False, False, False]
    """
    if _CODED_PLACE.fullmatch(text):
        return True
    parts = [part.strip() for part in text.rstrip(",").split(",")]
    if not 2 <= len(parts) <= 3 or not all(_PLACE_NAME.fullmatch(part) for part in parts):
        return False
    return parts[-1] in _WHERE or (parts[0] in _COUNTRIES and parts[1] in _WHERE)


#: Units of measure by the quantity they measure: the name a reader gives a
#: value written in them ("23 mpg City, 36 mpg Hwy" is the fuel economy,
#: "265 HP" the power). General words of measurement, none a site's own;
#: units that measure several things (a metre, an inch) are not here.
UNIT_QUANTITIES = {
    "mpg": "fuel_economy",
    "hp": "horsepower",
    "bhp": "horsepower",
    "kw": "power",
    "lb": "weight",
    "lbs": "weight",
    "kg": "weight",
    "g": "weight",
    "oz": "weight",
    "mph": "speed",
    "kph": "speed",
    "rpm": "speed",
    "mp": "resolution",
    "megapixel": "resolution",
    "megapixels": "resolution",
    "mah": "battery",
    "gb": "capacity",
    "tb": "capacity",
}
#: A number and the unit after it ("36 mpg", "265HP", "469 g"); a unit of
#: one letter only after a space ("5G" is no weight).
_MEASURE = re.compile(r"\d(?:[\d.,]{0,12}\d)?(?: ([A-Za-z]{1,10})|([A-Za-z]{2,10}))\b")


def unit_quantity(values: Sequence[list[str]]) -> str:
    """The quantity every non-empty value (one list per seed page) is a
    measure of, by the first known unit after a number in it
    (:data:`UNIT_QUANTITIES`), or ``""``.

    >>> unit_quantity([["23 mpg City, 36 mpg Hwy"], ["27 MPG City / 36 MPG Hwy"]])
    'fuel_economy'
    >>> unit_quantity([["3.0L Diesel I6, 265 HP"], ["2.5L I4, 175 hp @ 6000 rpm"]])
    'horsepower'
    >>> unit_quantity([["220 lbs"], ["98 kg"]]), unit_quantity([["469 g"], ["Blue"]])
    ('weight', '')
    >>> unit_quantity([["12 Angry Men"]]), unit_quantity([["4 GB"], ["23 mpg"]])
    ('', '')
    >>> unit_quantity([["5G LTE"]]), unit_quantity([["36mpg"]])
    ('', 'fuel_economy')
    """
    found = ""
    texts = [text for page in values for text in page if text.strip()]
    for text in texts:
        if len(text) > MAX_CHARS:
            return ""
        quantity = next(
            (
                UNIT_QUANTITIES[unit.lower()]
                for spaced, attached in _MEASURE.findall(text)
                if (unit := spaced or attached).lower() in UNIT_QUANTITIES
            ),
            "",
        )
        if not quantity or (found and quantity != found):
            return ""
        found = quantity
    return found
