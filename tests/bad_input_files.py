"""Hostile files a teacher's upload could be: Word files that unpack to far more than they
weigh, or that lie about it. Built in memory, for the bad-input tests and the uploads
benchmark."""

from __future__ import annotations

import functools
import io
import struct
import zipfile

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def docx_of(document_xml: bytes) -> bytes:
    return zip_of({"[Content_Types].xml": b"<Types/>", "word/document.xml": document_xml})


def spreadsheet() -> bytes:
    return zip_of({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>"})


def document_xml(paragraphs: list[str]) -> bytes:
    body = "".join(f"<w:p><w:r><w:t xml:space='preserve'>{p}</w:t></w:r></w:p>" for p in paragraphs)
    return f"<w:document xmlns:w='{W}'><w:body>{body}</w:body></w:document>".encode()


@functools.lru_cache(maxsize=1)
def docx_bomb() -> bytes:
    """A .docx of a few hundred KB whose document.xml unpacks to ~50 MB."""
    run = "<w:p><w:r><w:t>" + "honey " * 1000 + "</w:t></w:r></w:p>"
    xml = f"<w:document xmlns:w='{W}'><w:body>{run * 8_400}</w:body></w:document>"
    return docx_of(xml.encode())


def lying_docx_bomb() -> bytes:
    """The same bomb with its zip headers claiming document.xml holds 1 KB."""
    data = bytearray(docx_bomb())
    at = data.find(b"PK\x01\x02")
    while at != -1:
        name_len = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + name_len] == b"word/document.xml":
            struct.pack_into("<I", data, at + 24, 1024)
            local = struct.unpack_from("<I", data, at + 42)[0]
            struct.pack_into("<I", data, local + 22, 1024)
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def entity_docx_bomb() -> bytes:
    xml = (
        f"<?xml version='1.0'?><!DOCTYPE d [<!ENTITY a 'aaaaaaaaaa'>"
        "<!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'><!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;'>]>"
        f"<w:document xmlns:w='{W}'><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p>"
        "</w:body></w:document>"
    )
    return docx_of(xml.encode())
