#!/usr/bin/python3
"""Run a command under the seccomp part of a systemd unit's sandbox, for
hosts where systemd is not PID 1 (no systemd-run): the allow-list of
SystemCallFilter=, SystemCallErrorNumber=, RestrictAddressFamilies= and
MemoryDenyWriteExecute=, built from the unit file as systemd builds them
(src/core/execute.c: apply_syscall_filter, apply_address_families,
apply_memory_deny_write_execute; src/shared/seccomp-util.c).

  unit_sandbox.py UNIT -- COMMAND [ARG...]
  unit_sandbox.py UNIT --list      the allowed system calls, one a line

The groups (@system-service, ...) are expanded from
`systemd-analyze syscall-filter`, this host's systemd's own table. Lines
of SystemCallFilter= are applied in order: an allow-list line adds, a
`~` line removes (systemd's rule when the first line is an allow-list).
Needs no_new_privs or CAP_SYS_ADMIN to load (setpriv --no-new-privs);
Debian's python3-seccomp (libseccomp's binding).
"""
import errno
import os
import re
import socket
import subprocess
import sys

import seccomp

PROT_WRITE, PROT_EXEC = 0x2, 0x4


def unit_service(path):
    """The [Service] section's assignments: key -> [values in order]."""
    out, section = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            m = re.match(r"^\[(.+)\]$", line)
            if m:
                section = m.group(1)
                continue
            if section == "Service" and "=" in line:
                k, v = line.split("=", 1)
                out.setdefault(k.strip(), []).append(v.strip())
    return out


def syscall_groups():
    """@group -> its members (system calls and @groups) per systemd-analyze."""
    text = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"],
                          capture_output=True, text=True, check=True).stdout
    groups, cur = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            cur = groups.setdefault(line.strip(), [])
        elif cur is not None and line.strip() and not line.strip().startswith("#"):
            cur.append(line.strip())
    return groups


def expand(names, groups, seen=None):
    seen = set() if seen is None else seen
    out = set()
    for n in names:
        if n.startswith("@"):
            if n in seen:
                continue
            seen.add(n)
            if n not in groups:
                sys.exit(f"unit_sandbox: unknown system call group {n}")
            out |= expand(groups[n], groups, seen)
        else:
            out.add(n.split(":", 1)[0])  # name:errno keeps the name
    return out


def allowed_calls(svc, groups):
    allowed = None
    for line in svc.get("SystemCallFilter", []):
        deny = line.startswith("~")
        names = expand(line.lstrip("~").split(), groups)
        if allowed is None:
            if deny:
                sys.exit("unit_sandbox: a deny-list unit is not emulated here")
            allowed = set()
        allowed = allowed - names if deny else allowed | names
    if allowed is None:
        sys.exit("unit_sandbox: the unit has no SystemCallFilter=")
    return allowed


def build_filter(svc, allowed):
    err = svc.get("SystemCallErrorNumber", ["EPERM"])[-1]
    action = seccomp.ERRNO(getattr(errno, err)) if err != "kill" else seccomp.KILL_PROCESS
    f = seccomp.SyscallFilter(defaction=action)
    families = None
    if "RestrictAddressFamilies" in svc:
        families = [getattr(socket, a) for a in svc["RestrictAddressFamilies"][-1].split()]
    mdwe = svc.get("MemoryDenyWriteExecute", ["no"])[-1] in ("yes", "true", "1")
    for name in sorted(allowed):
        try:
            if name == "socket" and families is not None:
                for fam in families:
                    f.add_rule(seccomp.ALLOW, name, seccomp.Arg(0, seccomp.EQ, fam))
            elif mdwe and name in ("mmap", "mprotect", "pkey_mprotect"):
                # never writable and executable at once
                wx = PROT_WRITE | PROT_EXEC
                for ok in (0, PROT_WRITE, PROT_EXEC):
                    f.add_rule(seccomp.ALLOW, name, seccomp.Arg(2, seccomp.MASKED_EQ, wx, ok))
            else:
                f.add_rule(seccomp.ALLOW, name)
        except (RuntimeError, ValueError, OSError):
            pass  # not a system call of this architecture
    return f


def main(argv):
    if len(argv) < 3 or argv[2] not in ("--", "--list"):
        sys.exit(__doc__)
    svc = unit_service(argv[1])
    allowed = allowed_calls(svc, syscall_groups())
    if argv[2] == "--list":
        print("\n".join(sorted(allowed)))
        return
    if len(argv) < 4:
        sys.exit(__doc__)
    build_filter(svc, allowed).load()
    os.execvp(argv[3], argv[3:])


if __name__ == "__main__":
    main(sys.argv)
