"""Three tiny original stories (written for these tests) and a corpus builder."""

from __future__ import annotations

from pathlib import Path

HEN = """The Hen Who Kept the Keys

Old Greta the hen kept the keys of the farm on a red string around her neck. Every night she locked the barn, the mill and the garden gate, and every morning she opened them again before the sun was up.

One winter night a sly weasel came to the gate. "Give me the keys," he said, "and I will bring you warm corn." Greta was tempted, because the snow was deep and the corn bin was empty. But she remembered the lambs asleep in the barn.

"No," said Greta, and she called the farm dog with three loud clucks. The weasel ran into the woods and never came back. In the spring the farmer gave Greta a new nest lined with wool, because she had kept the farm safe all winter.
"""

LANTERN = """Tobi and the Paper Lantern

Tobi lived with his grandmother in a small house by the harbour. Each evening his grandmother folded paper lanterns and sold them to the sailors, who hung them on their boats so they could find their way home in the fog.

One evening the grandmother was ill and could not fold a single lantern. Tobi was afraid, because a thick fog was rolling in from the sea and the fishing boats were still out. He sat at the table and tried to remember how her hands had moved.

He folded and tore and folded again until his fingers were sore. At last he held up a lantern that was crooked but bright. He ran to the end of the pier and lifted it high. One by one the boats followed the light into the harbour, and the sailors thanked Tobi with a basket of silver fish.
"""

WELL = """The Well at the Top of the Hill

In a dry valley there was a village whose only well stood at the top of a steep hill. The children had to carry the water buckets up and down the path every day, and their legs were always tired.

A girl named Ines decided to dig a channel so the water could run down by itself. The elders laughed at her and said that the rock was too hard. Ines did not listen. She dug a little every morning with her father's old spade.

After a whole summer the channel reached the bottom of the hill. When the autumn rain came, the water ran down the channel into a pond beside the houses. The elders were ashamed that they had laughed, and the village named the pond after Ines.
"""

STORIES = {"hen": HEN, "lantern": LANTERN, "well": WELL}


def write_corpus(folder: Path, docx_name: str | None = "well") -> Path:
    """The three stories as .txt files, one of them (``docx_name``) as a Word file."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in STORIES.items():
        if name == docx_name:
            import docx

            document = docx.Document()
            for paragraph in text.split("\n\n"):
                document.add_paragraph(paragraph.strip())
            document.save(folder / f"{name}.docx")
        else:
            (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder
