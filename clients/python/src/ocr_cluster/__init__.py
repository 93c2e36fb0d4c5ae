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
from .models import (Block, Box, Candidate, Cluster, Document, Event, Finished, Job, JobList, Line, Page, PageCompleted,
                     PageFailed, Paragraph, Progress, Symbol, Word, Worker)

__version__ = "0.2.0"

__all__ = ["AsyncClient", "AsyncZMQClient", "Block", "Box", "Candidate", "Client", "Cluster", "Document", "Event", "Finished", "InputFile", "Job",
           "JobList", "Line", "OCRClusterError", "Options", "Page", "PageCompleted", "PageFailed", "Paragraph", "Progress",
           "Symbol", "Word", "Worker", "ZMQClient"]
