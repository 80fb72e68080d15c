"""Transcript files (JSON lines) and the offline verifier."""

from .file import Transcript, TranscriptError, TranscriptWriter, header_line, read
from .verify import Verdict, verify_file, verify_transcript

__all__ = ["Transcript", "TranscriptError", "TranscriptWriter", "Verdict", "header_line", "read",
           "verify_file", "verify_transcript"]
