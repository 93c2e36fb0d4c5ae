"""ocr-cluster for Python: a typed client of a coordinator's REST API.

    from ocr_cluster import Client
    with Client("http://127.0.0.1:8080") as client:
        job = client.submit(["scan.tiff"], languages="eng")
        print(client.document(job.id).text)
"""
from ._requests import InputFile, Options
from .aio import AsyncClient
from .client import Client
from .errors import OCRClusterError
from .zmq_aio import AsyncZMQClient
from .zmq_client import ZMQClient
from .geometry import Box
from .models import (Block, Candidate, Cluster, Document, Event, Finished, Job, JobList, Line, Page, PageCompleted,
                     PageFailed, Paragraph, Progress, Symbol, Word, Worker)
from .structure import DetectedData, Element, Heading, ListBlock, ListItem, Table, TableCell, TextBlock

__version__ = "0.2.0"

__all__ = ["AsyncClient", "AsyncZMQClient", "Block", "Box", "Candidate", "Client", "Cluster", "DetectedData", "Document", "Element",
           "Event", "Finished", "Heading", "InputFile", "Job", "JobList", "Line", "ListBlock", "ListItem", "OCRClusterError", "Options",
           "Page", "PageCompleted", "PageFailed", "Paragraph", "Progress", "Symbol", "Table", "TableCell", "TextBlock", "Word", "Worker",
           "ZMQClient"]
