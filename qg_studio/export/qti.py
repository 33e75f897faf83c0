"""IMS QTI 2.1: one ``assessmentItem`` per question, an ``assessmentTest`` that orders
them, and an ``imsmanifest.xml`` (IMS Content Packaging 1.1) in one zip.

Multiple choice → ``choiceInteraction`` scored by the standard match_correct template;
an open question → ``extendedTextInteraction`` with the model answer as its
``correctResponse`` (shown to the marker; scored by hand).
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from typing import Sequence

from qg_studio.export.quizset import ExportReport
from qg_studio.export.quizset import QuizQuestion
from qg_studio.export.quizset import skip
from qg_studio.export.safety import clean_text

QTI_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
QTI_SCHEMA = f"{QTI_NS} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP_SCHEMA = f"{CP_NS} http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
MATCH_CORRECT = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"


def _xml(root: ET.Element) -> bytes:
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _item(q: QuizQuestion, identifier: str) -> ET.Element:
    item = ET.Element(
        "assessmentItem",
        {
            "xmlns": QTI_NS,
            "xmlns:xsi": XSI_NS,
            "xsi:schemaLocation": QTI_SCHEMA,
            "identifier": identifier,
            "title": clean_text(f"Q{q.number} {q.question}")[:80],
            "adaptive": "false",
            "timeDependent": "false",
        },
    )
    body_type = "identifier" if not q.is_open else "string"
    response = ET.SubElement(
        item, "responseDeclaration", identifier="RESPONSE", cardinality="single", baseType=body_type
    )
    correct = ET.SubElement(response, "correctResponse")
    ET.SubElement(correct, "value").text = (
        f"choice{q.correct + 1}" if not q.is_open else clean_text(q.answer)
    )
    outcome = ET.SubElement(
        item, "outcomeDeclaration", identifier="SCORE", cardinality="single", baseType="float"
    )
    default = ET.SubElement(outcome, "defaultValue")
    ET.SubElement(default, "value").text = "0"
    body = ET.SubElement(item, "itemBody")
    if not q.is_open:
        interaction = ET.SubElement(
            body, "choiceInteraction", responseIdentifier="RESPONSE", shuffle="true", maxChoices="1"
        )
        ET.SubElement(interaction, "prompt").text = clean_text(q.question)
        for i, option in enumerate(q.options):
            ET.SubElement(
                interaction, "simpleChoice", identifier=f"choice{i + 1}"
            ).text = clean_text(option)
        ET.SubElement(item, "responseProcessing", template=MATCH_CORRECT)
    else:
        interaction = ET.SubElement(
            body, "extendedTextInteraction", responseIdentifier="RESPONSE", expectedLines="4"
        )
        ET.SubElement(interaction, "prompt").text = clean_text(q.question)
    return item


def qti(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    report = ExportReport("QTI 2.1")
    written: list[tuple[str, str]] = []
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for q in questions:
            if q.is_open and not q.answer:
                skip(q, "no answer", report)
                continue
            identifier = f"item{q.number}"
            href = f"items/{identifier}.xml"
            archive.writestr(href, _xml(_item(q, identifier)))
            written.append((identifier, href))
            report.written += 1
        test = ET.Element(
            "assessmentTest",
            {
                "xmlns": QTI_NS,
                "xmlns:xsi": XSI_NS,
                "xsi:schemaLocation": QTI_SCHEMA,
                "identifier": "test",
                "title": clean_text(title or "Reading questions"),
            },
        )
        part = ET.SubElement(
            test,
            "testPart",
            identifier="part1",
            navigationMode="linear",
            submissionMode="individual",
        )
        section = ET.SubElement(
            part,
            "assessmentSection",
            identifier="section1",
            title=clean_text(title or "Questions"),
            visible="true",
        )
        for identifier, href in written:
            ET.SubElement(section, "assessmentItemRef", identifier=identifier, href=href)
        archive.writestr("test.xml", _xml(test))
        archive.writestr("imsmanifest.xml", _xml(_manifest(written)))
    return buffer.getvalue(), report


def _manifest(written: list[tuple[str, str]]) -> ET.Element:
    manifest = ET.Element(
        "manifest",
        {
            "xmlns": CP_NS,
            "xmlns:xsi": XSI_NS,
            "xsi:schemaLocation": CP_SCHEMA,
            "identifier": "qg-studio-manifest",
        },
    )
    metadata = ET.SubElement(manifest, "metadata")
    ET.SubElement(metadata, "schema").text = "QTIv2.1 Package"
    ET.SubElement(metadata, "schemaversion").text = "1.0.0"
    ET.SubElement(manifest, "organizations")
    resources = ET.SubElement(manifest, "resources")
    test = ET.SubElement(
        resources, "resource", identifier="test", type="imsqti_test_xmlv2p1", href="test.xml"
    )
    ET.SubElement(test, "file", href="test.xml")
    for identifier, _ in written:
        ET.SubElement(test, "dependency", identifierref=identifier)
    for identifier, href in written:
        resource = ET.SubElement(
            resources, "resource", identifier=identifier, type="imsqti_item_xmlv2p1", href=href
        )
        ET.SubElement(resource, "file", href=href)
    return manifest
