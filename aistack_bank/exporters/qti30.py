"""Conversion of a bank to QTI 3.0 content packages (one zip per language)."""

from __future__ import annotations

import re

from .qti_common import ATTRIBUTES, ELEMENTS, Dialect, qti_format


def kebab(name: str) -> str:
    """``assessmentItem`` → ``assessment-item``."""
    return re.sub(r"(?<!^)([A-Z])", lambda m: "-" + m.group(1).lower(), name)


DIALECT = Dialect(
    namespace="http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
    schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
    manifest_namespace="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
    manifest_schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd",
    schema_name="QTI Package",
    schema_version="3.0.0",
    item_type="imsqti_item_xmlv3p0",
    test_type="imsqti_test_xmlv3p0",
    # QTI 3 renames mechanically: ``choiceInteraction`` is ``qti-choice-interaction`` and the
    # attribute ``responseIdentifier`` is ``response-identifier``.
    elements={name: "qti-" + kebab(name) for name in ELEMENTS},
    attributes={name: kebab(name) for name in ATTRIBUTES},
    feedback_body="qti-content-body",
    # Shared-vocabulary classes for Moodle's numbering styles (no class exists for roman numerals).
    numbering_classes={"abc": "qti-labels-lower-alpha", "ABCD": "qti-labels-upper-alpha", "123": "qti-labels-decimal", "none": "qti-labels-none"},
)

FORMAT = qti_format(
    "qti30", DIALECT, honours=frozenset({"shuffle", "answer_numbering"}),
    platforms="QTI 3.0 players: TAO 3.x/Studio, Amp-up, Citolab and other QTI 3 delivery systems.",
    loses="Moodle's penalty per wrong try and roman option numbering; units (W660) and decimal commas (W661), as QTI 2.1.",
)
export = FORMAT
