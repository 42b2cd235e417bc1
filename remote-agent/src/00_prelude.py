# nvidb node agent: answers JSON requests about this node's GPUs (docs/agent-protocol.md).
# The build joins the parts in remote-agent/src, in the order remote-agent/modules.txt gives,
# into the one script it ships (dev/nvidb/agent/nvidb_agent.py in the jar): they share one
# namespace and import nothing from each other. This first part holds the imports and the
# protocol's version.
# Python 3.6+ standard library only: it is streamed to the node over SSH at every use and
# run with exec(), so it must not rely on __file__, installed packages or newer syntax.
# Stdout carries protocol replies only; diagnostics go to stderr.
# Modules only some requests need (base64, shutil, subprocess) are imported where they are
# used: every agent start pays for what is imported here.
import ctypes
import errno
import fcntl
import json
import os
import pwd
import signal
import stat as statmod
import sys
import threading
import time

SCHEMA_VERSION = 1
MIB = 1048576
