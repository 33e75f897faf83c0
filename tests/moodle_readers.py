"""Strict readers of Moodle's GIFT, Aiken and XML formats, ported from Moodle's importers.

Each follows the import code of ``question/format/{gift,aiken,xml}`` in Moodle 4.x
step by step (escape placeholders, first ``{`` and ``}``, the answer-weight regex, the
type decision, ``[format]`` markers; Aiken's option regex with its optional space;
expat's character chunks with whitespace-only chunks skipped as ``xml_parse_into_struct``
with ``XML_OPTION_SKIP_WHITE`` does). Where Moodle's importer reports an error or
drops a question, these raise :class:`ImportFailed`, so a test fails instead.
"""

from __future__ import annotations

import html
import re
import xml.parsers.expat

PHP_SPACE = " \t\n\r\0\x0b"  # what PHP's trim() removes
_ESCAPES = {
    "\\:": "&&058;",
    "\\#": "&&035;",
    "\\=": "&&061;",
    "\\{": "&&123;",
    "\\}": "&&125;",
    "\\~": "&&126;",
    "\\n": "&&010",
}
_PLACEHOLDERS = {
    "&&058;": ":",
    "&&035;": "#",
    "&&061;": "=",
    "&&123;": "{",
    "&&125;": "}",
    "&&126;": "~",
    "&&010": "\n",
}
_WEIGHT = re.compile(r"^%-*([0-9]{1,2})\.?([0-9]*)%")
_FORMATS = {"moodle", "html", "plain", "markdown"}


class ImportFailed(AssertionError):
    pass


def _trim(text: str) -> str:
    return text.strip(PHP_SPACE)


def _pre(text: str) -> str:
    text = text.replace("\\\\", "&&092;")
    for escaped, placeholder in _ESCAPES.items():
        text = text.replace(escaped, placeholder)
    return text.replace("&&092;", "\\")


def _post(text: str) -> str:
    for placeholder, char in _PLACEHOLDERS.items():
        text = text.replace(placeholder, char)
    return text


def _with_format(text: str, default: str = "moodle") -> tuple[str, str]:
    fmt = default
    if text.startswith("["):
        end = text.find("]")
        name = text[1:end] if end >= 0 else text[1:-1]
        if name in _FORMATS:
            fmt, text = name, text[end + 1 :]
    return fmt, _trim(_post(text))


def shown(fmt: str, text: str) -> str:
    """What a student sees: plain text as it is; markup formats only when markup-free."""
    if fmt == "plain":
        return text
    if re.search(r"<[A-Za-z/!]", text):
        raise ImportFailed(f"text imported as {fmt} markup: {text!r}")
    return html.unescape(text)


def gift_blocks(text: str) -> list[list[str]]:
    """Questions are separated by blank lines (qformat_default::readquestions)."""
    blocks, current = [], []
    for line in text.replace("\r\n", "\n").split("\n"):
        if _trim(line) == "" or _trim(line) == "0":  # PHP's empty()
            if current:
                blocks.append(current)
            current = []
        else:
            current.append(line)
    return blocks + ([current] if current else [])


def read_gift(text: str) -> list[dict]:
    out = []
    for lines in gift_blocks(text):
        question = _gift_question(lines)
        if question is not None:
            out.append(question)
    return out


def _gift_question(lines: list[str]) -> dict | None:
    lines = [" " if _trim(ln).startswith("//") else ln for ln in lines]
    text = _trim("\n".join(lines))
    if not text:
        return None
    text = _pre(text)
    if text.startswith("$CATEGORY:"):
        return {"type": "category", "category": _trim(text[10:])}
    name = None
    if text.startswith("::"):
        text = text[2:]
        end = text.find("::")
        if end >= 0:
            name, text = _trim(_post(text[:end])), _trim(text[end + 2 :])
    start, finish = text.find("{"), text.find("}")
    if start < 0 and finish < 0:
        raise ImportFailed(f"description, not a question: {text!r}")
    if start < 0 or finish < 0:
        raise ImportFailed(f"brace error in {text!r}")
    answer_text = _trim(text[start + 1 : finish])
    if text.endswith("}"):
        question_text = text[:start] + text[finish + 1 :]
    else:
        question_text = text[:start] + "_____" + text[finish + 1 :]
    general = ""
    separator = answer_text.rfind("####")
    if separator >= 0:
        general, answer_text = answer_text[separator + 4 :], _trim(answer_text[:separator])
    fmt, qtext = _with_format(question_text)
    result = {
        "name": name,
        "format": qtext and fmt,
        "text": qtext,
        "feedback": _with_format(general, fmt),
        "answers": [],
    }
    if answer_text == "":
        result["type"] = "essay"
    elif answer_text[0] == "#":
        raise ImportFailed(f"numerical question: {answer_text!r}")
    elif "~" in answer_text:
        result["type"] = "multichoice"
        answers = answer_text.replace("=", "~=").split("~")
        answers[0] = _trim(answers[0])
        if not answers[0]:
            answers.pop(0)
        if len(answers) < 2:
            raise ImportFailed(f"fewer than 2 answers: {answer_text!r}")
        for answer in answers:
            answer = _trim(answer)
            if answer[:1] == "=":
                weight, answer = 1.0, answer[1:]
            elif _WEIGHT.match(answer):
                weight, answer = _weight(answer)
            else:
                weight = 0.0
            result["answers"].append(
                (weight, *_with_format(answer.split("#", 1)[0].strip(PHP_SPACE), fmt))
            )
    elif "=" in answer_text and "->" in answer_text:
        # Moodle reads a matching question here; ours are never one, and a single pair
        # aborts Moodle's whole import.
        raise ImportFailed(f"read as a matching question: {answer_text!r}")
    else:
        check = answer_text
        if answer_text.find("#") > 0:
            check = _trim(answer_text[: answer_text.find("#")])
        if check in ("T", "TRUE", "F", "FALSE"):
            result["type"] = "truefalse"
            result["answers"].append((1.0, "plain", check))
            return result
        result["type"] = "shortanswer"
        answers = answer_text.split("=")
        answers[0] = _trim(answers[0])
        if not answers[0]:
            answers.pop(0)
        if not answers:
            raise ImportFailed(f"no answer in {answer_text!r}")
        for answer in answers:
            answer = _trim(answer)
            weight = 1.0
            if _WEIGHT.match(answer):
                weight, answer = _weight(answer)
            _, value = _with_format(_trim(answer.split("#", 1)[0]), fmt)
            result["answers"].append((weight, "plain", value))
    return result


def _weight(answer: str) -> tuple[float, str]:
    answer = answer[1:]
    end = answer.find("%")
    return float(answer[:end]) / 100, answer[end + 1 :]


def right_answers(question: dict) -> list[str]:
    return [shown(fmt, text) for weight, fmt, text in question["answers"] if weight == 1.0]


def wrong_answers(question: dict) -> list[str]:
    return [shown(fmt, text) for weight, fmt, text in question["answers"] if weight == 0.0]


# -- Aiken --------------------------------------------------------------------------------

_OPTION = re.compile(r"^[A-Z][).][ \t]?")


def read_aiken(text: str) -> list[dict]:
    questions, current = [], None
    for number, raw in enumerate(re.split(r"\r|\n", text), start=1):
        line = _trim(raw)
        if len(line.encode("utf-8")) < 2:
            continue
        if _OPTION.match(line):
            if current is None:
                raise ImportFailed(f"line {number}: option outside a question: {line!r}")
            current["options"].append(_trim(line[2:]))
        elif line.startswith("ANSWER:"):
            if current is None:
                raise ImportFailed(f"line {number}: ANSWER outside a question")
            letter = _trim(line[line.find(":") + 1 :])[:1]
            index = ord(letter) - ord("A") if letter else -1
            if len(current["options"]) < 2 or not 0 <= index < len(current["options"]):
                raise ImportFailed(f"line {number}: bad options or answer in {current!r}")
            current["answer"] = current["options"][index]
            questions.append(current)
            current = None
        else:
            if current is not None:
                raise ImportFailed(f"line {number}: question {current['text']!r} lost")
            current = {"text": line, "options": []}
    if current is not None:
        raise ImportFailed(f"question without ANSWER: {current['text']!r}")
    return questions


# -- Moodle XML ------------------------------------------------------------------------


def _xml_tree(data: bytes) -> dict:
    parser = xml.parsers.expat.ParserCreate()
    parser.buffer_text = False
    root = {"tag": "", "attrs": {}, "children": [], "chunks": []}
    stack = [root]

    def start(tag, attrs):
        node = {"tag": tag, "attrs": attrs, "children": [], "chunks": []}
        stack[-1]["children"].append(node)
        stack.append(node)

    def data_(text):
        if _trim(text):  # XML_OPTION_SKIP_WHITE drops whitespace-only chunks
            stack[-1]["chunks"].append(text)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    parser.CharacterDataHandler = data_
    parser.Parse(data, True)
    return root["children"][0]


def _child(node: dict, tag: str) -> dict | None:
    return next((c for c in node["children"] if c["tag"] == tag), None)


def _text_of(node: dict | None) -> str:
    text = _child(node, "text") if node is not None else None
    return _trim("".join(text["chunks"])) if text is not None else ""


def read_moodle_xml(data: bytes) -> list[dict]:
    """The questions of a Moodle XML file, texts as Moodle's importer stores them."""
    quiz = _xml_tree(data)
    if quiz["tag"] != "quiz":
        raise ImportFailed(f"root is <{quiz['tag']}>, not <quiz>")
    out = []
    for node in quiz["children"]:
        kind = node["attrs"].get("type")
        if node["tag"] != "question" or kind == "category":
            continue
        text = _child(node, "questiontext")
        fmt = (text or {"attrs": {}})["attrs"].get("format", "html")
        out.append(
            {
                "type": kind,
                "format": fmt,
                "text": _text_of(text),
                "answers": [
                    (float(a["attrs"].get("fraction", 0)) / 100, _text_of(a))
                    for a in node["children"]
                    if a["tag"] == "answer"
                ],
                "feedback": _text_of(_child(node, "generalfeedback")),
                "graderinfo": _text_of(_child(node, "graderinfo")),
            }
        )
    return out
