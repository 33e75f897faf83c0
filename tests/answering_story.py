"""A five-section original story for the answering tests, and a tiny span model.

Each fact sits in one section only, so a test can tell whether retrieval found it.
"""

from __future__ import annotations

from pathlib import Path

from qg_studio.schema import Section

SECTIONS_TEXT = [
    # 1: who and where
    "Tomas was a fisherman who lived in a blue cottage by the grey northern sea. Every "
    "morning he rowed his little boat past the rocks, and every evening his daughter Lina "
    "waited for him on the shore with a lantern. Lina was a clever girl with red hair, and "
    "she could mend a net faster than any sailor in the village. They were poor, but they "
    "were happy, because they had each other and the sea gave them enough fish to eat.",
    # 2: the market and the gift
    "On market day Lina carried a basket of herring up the hill to the town square. An old "
    "woman in a green shawl sat beside the fountain, shivering, and nobody stopped to help "
    "her. Lina gave the old woman her warm coat and the best fish in her basket. The old "
    "woman smiled and pressed a silver key into Lina's hand. She whispered that the key "
    "would open the door that no one in the town had opened for a hundred years.",
    # 3: the lighthouse
    "The only door in the town that had been locked for a hundred years belonged to the "
    "old lighthouse on the cliff. That night Lina climbed the cliff path and turned the "
    "silver key in the rusty lock. Inside, curled around the great lamp, a dragon made of "
    "glass lay sleeping. When Lina touched its nose, the dragon woke and began to glow "
    "with a soft golden light that filled the whole tower.",
    # 4: the storm
    "A week later a terrible storm came from the west. The waves grew as tall as houses, "
    "and Tomas did not come home. Lina ran to the lighthouse and begged the glass dragon "
    "for help. The dragon climbed to the top of the tower and shone brighter than the sun. "
    "Far out at sea, Tomas saw the golden beam, turned his boat towards it, and rowed "
    "safely into the harbour before midnight.",
    # 5: the ending
    "The next morning the whole village gathered on the cliff to thank Lina and the dragon. "
    "The mayor declared that Lina would be the keeper of the lighthouse for the rest of her "
    "life. From that day on, no ship was ever lost on the rocks below the cliff, and the "
    "fishermen sang songs about the brave girl and her dragon of glass.",
]


def story_sections() -> list[Section]:
    return [Section(id=i + 1, text=t) for i, t in enumerate(SECTIONS_TEXT)]


def story_text() -> str:
    return "\n\n".join(SECTIONS_TEXT)


def tiny_span_model(folder: Path) -> Path:
    """A randomly initialised 2-layer BERT span model with the MiniLM tokenizer, saved
    like the shipped one (fp16 safetensors): exercises the model path in milliseconds."""
    import torch
    from transformers import AutoTokenizer
    from transformers import BertConfig
    from transformers import BertForQuestionAnswering

    from qg_studio.models.embeddings import encoder_path

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(encoder_path())
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
    )
    model = BertForQuestionAnswering(config)
    folder.mkdir(parents=True, exist_ok=True)
    model.half().save_pretrained(folder, safe_serialization=True)
    tokenizer.save_pretrained(folder)
    return folder
