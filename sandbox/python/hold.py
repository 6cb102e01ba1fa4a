# Keeps a job's bubblewrap sandbox open for the fork server's child to join (forkserver.py): its root as an O_PATH
# descriptor on fd 5, one byte on fd 4 to say the sandbox is set up, then it waits until the grader closes fd 4.
# It runs no job code and reads nothing of the job's; `python3 -I -S` (no site) keeps its start small. It is confined
# with the job (cgroups) and ends with it.
import ctypes
import os

# Non-dumpable: the job's processes share its uid, and must not trace it or read its memory.
if ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, 0
    os._exit(70)
os.dup2(os.open('/', os.O_PATH | os.O_DIRECTORY), 5)
os.write(4, b'r')
while os.read(4, 64):
    pass
os._exit(0)
