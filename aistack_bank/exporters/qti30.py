"""Conversion of a bank to QTI 3.0 content packages (one zip per language)."""

from __future__ import annotations

from ._qti import Dialect, qti_format

DIALECT = Dialect(
    namespace="http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
    schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
    manifest_namespace="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
    manifest_schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd",
    schema_name="QTI Package",
    schema_version="3.0.0",
    item_type="imsqti_item_xmlv3p0",
    test_type="imsqti_test_xmlv3p0",
    elements={
        "assessmentItem": "qti-assessment-item",
        "responseDeclaration": "qti-response-declaration",
        "correctResponse": "qti-correct-response",
        "value": "qti-value",
        "outcomeDeclaration": "qti-outcome-declaration",
        "defaultValue": "qti-default-value",
        "itemBody": "qti-item-body",
        "choiceInteraction": "qti-choice-interaction",
        "prompt": "qti-prompt",
        "simpleChoice": "qti-simple-choice",
        "responseProcessing": "qti-response-processing",
        "responseCondition": "qti-response-condition",
        "responseIf": "qti-response-if",
        "responseElseIf": "qti-response-else-if",
        "responseElse": "qti-response-else",
        "match": "qti-match",
        "variable": "qti-variable",
        "correct": "qti-correct",
        "setOutcomeValue": "qti-set-outcome-value",
        "baseValue": "qti-base-value",
        "multiple": "qti-multiple",
        "modalFeedback": "qti-modal-feedback",
        "assessmentTest": "qti-assessment-test",
        "testPart": "qti-test-part",
        "itemSessionControl": "qti-item-session-control",
        "assessmentSection": "qti-assessment-section",
        "assessmentItemRef": "qti-assessment-item-ref",
        "outcomeProcessing": "qti-outcome-processing",
        "sum": "qti-sum",
        "testVariables": "qti-test-variables",
    },
    attributes={
        "adaptive": "adaptive",
        "timeDependent": "time-dependent",
        "baseType": "base-type",
        "responseIdentifier": "response-identifier",
        "maxChoices": "max-choices",
        "outcomeIdentifier": "outcome-identifier",
        "showHide": "show-hide",
        "navigationMode": "navigation-mode",
        "submissionMode": "submission-mode",
        "showFeedback": "show-feedback",
        "allowReview": "allow-review",
        "variableIdentifier": "variable-identifier",
    },
    feedback_body="qti-content-body",
    # Shared-vocabulary classes for Moodle's numbering styles (no class exists for roman numerals).
    numbering_classes={"abc": "qti-labels-lower-alpha", "ABCD": "qti-labels-upper-alpha", "123": "qti-labels-decimal", "none": "qti-labels-none"},
)

FORMAT = qti_format("qti30", DIALECT, honours=frozenset({"shuffle", "answer_numbering"}))
export = FORMAT
