"""The command line of the pv_*_check.py scripts: ARGS [-- ARGS ...], one group per file, all
checked in one process (one ParaView start). A broken file can abort ParaView itself, so each
group's first argument is printed before it is checked: the last such line names the culprit."""


def run_groups(main, argv):
    group = []
    for a in argv + ["--"]:
        if a != "--":
            group.append(a)
            continue
        if group:
            print(f"checking {group[0]}", flush=True)
            main(*group)
        group = []
