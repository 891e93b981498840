"""Conversion of a bank to QTI 2.1 content packages (one zip per language)."""

from __future__ import annotations

from .qti_common import ATTRIBUTES, ELEMENTS, Dialect, qti_format

DIALECT = Dialect(
    namespace="http://www.imsglobal.org/xsd/imsqti_v2p1",
    schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd",
    manifest_namespace="http://www.imsglobal.org/xsd/imscp_v1p1",
    manifest_schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd",
    schema_name="QTIv2.1 Package",
    schema_version="1.0.0",
    item_type="imsqti_item_xmlv2p1",
    test_type="imsqti_test_xmlv2p1",
    # The writer's names are QTI 2.1's own.
    elements={name: name for name in ELEMENTS},
    attributes={name: name for name in ATTRIBUTES},
)

FORMAT = qti_format(
    "qti21", DIALECT, honours=frozenset({"shuffle"}),
    platforms="QTI 2.1 players and LMSs: Canvas (*Course → Settings → Import Course Content → QTI .zip file*), TAO, OpenOlat, Sakai (Tests & Quizzes), QTIWorks.",
    loses="Moodle's penalty per wrong try and option numbering; units (the prompt names the unit to answer in, W660) and decimal commas (W661).",
)
export = FORMAT
