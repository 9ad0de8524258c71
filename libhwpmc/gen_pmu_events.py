#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
libhwpmc: turn the kernel's pmu-events JSON tables into C, at build time.

    gen_pmu_events.py [--pfm PFM.tsv] ARCHDIR OUT.c
    gen_pmu_events.py --metrics ARCHDIR OUT.c

ARCHDIR is tools/perf/pmu-events/arch of a kernel source tree (mk/user.mk
extracts it from Debian's linux-source package); only its x86 and arm64
trees are read.  OUT.c holds one string pool and offset-only tables (no
pointers, so the library needs no relocations for them): every CPU-id
pattern of each mapfile.csv, the core events of each model (name, perf
encoding terms, brief description, topic as perf names it ("cache",
"floating point": the JSON file's name), SampleAfterValue, flags, and
the long description where it says more than the brief one), with
arm64's ArchStdEvent references resolved against the architecture's
standard events (the JSON files at the top of arm64/).  Uncore and other
non-core events are left out.  Layout: libhwpmc/pmu_events.h.

With --pfm, OUT.c also holds libpfm4's names of the events (docs/design.md
decision 32): PFM.tsv is what gen_pfm_events (linked with Debian's libpfm4)
printed, one line per libpfm4 name with its perf encoding.  A model's
libpfm4 PMUs are those PFM_MODELS names; a libpfm4 name of one of them
becomes an alias of the model's event whose encoding (by the
architectural layout the library uses without sysfs) is the same
config, config1 and config2; a name no event has the encoding of gets no
alias.  The counts matched per model are in OUT.c's first comment.

With --metrics, OUT.c holds the derived metrics of each model instead
(MetricName, MetricExpr, MetricGroup, ScaleUnit, BriefDescription of the
core entries of its JSON files that have them: *metrics.json, AMD's
recommended.json and pipeline.json), for hwpmc-stat -M: arm64's ArchStdEvent references
resolved against the architecture's standard metrics (sbsa.json), and
those standard metrics added to every arm64 model whose events they
name.  Layout: tools/pmu_metrics.h.
"""
import csv
import json
import os
import re
import sys

CORE_UNITS = (None, "core", "cpu", "cpu_core")
ATOM_UNITS = ("cpu_atom",)      # hybrid Intel's E-cores: a companion table
FLAG_DEPRECATED = 1
FLAG_PRECISE = 2
ARCH_X86 = 1
ARCH_ARM64 = 2

# x86: MSR index -> the perf format term its value goes to
MSR_TERMS = {0x3F6: "ldlat", 0x1A6: "offcore_rsp", 0x1A7: "offcore_rsp",
             0x3F7: "frontend"}


def num(s):
    """A JSON number field ("0xC0", "1", "0xB7, 0xBB"): its first value."""
    return int(str(s).split(",")[0].strip(), 0)


def encoding(ev, arch):
    """perf's terms for one event, as "event=0x..,umask=0x..,..."."""
    if "ConfigCode" in ev:
        terms = ["config=%#x" % num(ev["ConfigCode"])]
    else:
        code = num(ev.get("EventCode", "0"))
        if "ExtSel" in ev:
            code |= num(ev["ExtSel"]) << 8
        terms = ["event=%#x" % code]
    if arch == ARCH_X86:
        for key, term in (("UMask", "umask"), ("CounterMask", "cmask"),
                          ("EdgeDetect", "edge"), ("Invert", "inv"),
                          ("AnyThread", "any"), ("FCMask", "fc_mask"),
                          ("PortMask", "ch_mask")):
            if key in ev and num(ev[key]) != 0:
                v = num(ev[key])
                terms.append("%s=%#x" % (term, v) if v > 1 or term in
                             ("umask", "cmask") else term)
        if "MSRIndex" in ev and "MSRValue" in ev:
            idx = num(ev["MSRIndex"])
            if idx in MSR_TERMS and num(ev["MSRValue"]) != 0:
                terms.append("%s=%#x" % (MSR_TERMS[idx], num(ev["MSRValue"])))
    return ",".join(terms)


# The layouts of pmc_pmu.c's fmt_intel, fmt_amd and fmt_arm64: term ->
# (register, [(low bit, high bit)]), a value's low bits in the first range
LAYOUT_INTEL = {
    "event": (0, [(0, 7)]), "umask": (0, [(8, 15)]), "edge": (0, [(18, 18)]),
    "pc": (0, [(19, 19)]), "any": (0, [(21, 21)]), "inv": (0, [(23, 23)]),
    "cmask": (0, [(24, 31)]), "in_tx": (0, [(32, 32)]),
    "in_tx_cp": (0, [(33, 33)]), "ldlat": (1, [(0, 15)]),
    "offcore_rsp": (1, [(0, 63)]), "frontend": (1, [(0, 23)])}
LAYOUT_AMD = {
    "event": (0, [(0, 7), (32, 35)]), "umask": (0, [(8, 15)]),
    "edge": (0, [(18, 18)]), "inv": (0, [(23, 23)]), "cmask": (0, [(24, 31)])}
LAYOUT_ARM64 = {"event": (0, [(0, 15)]), "long": (1, [(0, 0)])}

# The libpfm4 core PMUs of each table (JSON directory): libpfm4 has no
# interface that maps a CPU id to its PMU model (its detection reads the
# running CPU's CPUID; LIBPFM_FORCE_PMU takes a PMU name), and the
# overlap of encodings does not tell either (Zen 3's table shares more
# encodings with libpfm4's Zen 4 PMU than with its Zen 3 one).  So the
# models are named here, from libpfm4's own model lists and descriptions
# (its PMU "icl" covers Ice Lake, Tiger Lake and Rocket Lake); the events
# and their names all come from libpfm4.  The first PMU names the model
# in messages; the others are accepted as prefixes too.
PFM_MODELS = {
    "bonnell": ("atom",), "nehalemep": ("nhm",), "nehalemex": ("nhm_ex",),
    "westmereep-sp": ("wsm",), "westmereep-dp": ("wsm_dp",),
    "sandybridge": ("snb",), "jaketown": ("snb_ep",),
    "ivybridge": ("ivb",), "ivytown": ("ivb_ep",),
    "haswell": ("hsw",), "haswellx": ("hsw_ep",),
    "broadwell": ("bdw",), "broadwellx": ("bdw_ep",),
    "broadwellde": ("bdw_ep",), "skylake": ("skl",), "skylakex": ("skx",),
    "cascadelakex": ("clx",), "icelake": ("icl",), "tigerlake": ("icl",),
    "rocketlake": ("icl",), "icelakex": ("icx",),
    "sapphirerapids": ("spr",), "silvermont": ("slm",),
    "goldmont": ("glm",), "knightslanding": ("knl", "knm"),
    "snowridgex": ("tmt",), "elkhartlake": ("tmt",),
    "amdzen1": ("amd64_fam17h_zen1", "amd64_fam17h"),
    "amdzen2": ("amd64_fam17h_zen2",), "amdzen3": ("amd64_fam19h_zen3",),
    "amdzen4": ("amd64_fam19h_zen4",),
    # an arm64 libpfm4's (Debian's amd64 one has no arm64 PMU)
    "arm/cortex-a57-a72": ("arm_ac57", "arm_ac72"),
    "arm/cortex-a53": ("arm_ac53",), "arm/neoverse-n1": ("arm_n1",),
    "arm/neoverse-n2-v2": ("arm_n2", "arm_v2"), "arm/neoverse-v1": ("arm_v1",),
}


def config_of(enc, layout):
    """(config, config1, config2) of perf terms by layout; None if a term
    is not in it."""
    regs = [0, 0, 0]
    for t in enc.split(","):
        k, _, v = t.partition("=")
        val = int(v, 0) if v else 1
        if k in ("config", "config1", "config2"):
            regs[{"config": 0, "config1": 1, "config2": 2}[k]] = val
            continue
        if k not in layout:
            return None
        reg, ranges = layout[k]
        for lo, hi in ranges:
            w = hi - lo + 1
            regs[reg] |= (val & ((1 << w) - 1)) << lo
            val >>= w
    return tuple(regs)


def load_pfm(path):
    """gen_pfm_events' output: (arch, {pmu: [(name, config tuple)]})."""
    arch, pmus = None, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#arch "):
                arch = line.split()[1]
                continue
            pmu, name, c0, c1, c2 = line.rstrip("\n").split("\t")
            pmus.setdefault(pmu, []).append(
                (name, (int(c0, 0), int(c1, 0), int(c2, 0))))
    return arch, pmus


def pfm_aliases(subdir, arch, evs, pfm):
    """libpfm4's names of events evs (a table's [(name, ev, topic)]):
    (PMU names, [(name, position in evs)] sorted by lower-case name, report
    line)."""
    want = PFM_MODELS.get(subdir, ())
    pfm_arch, pmus = pfm
    if pfm_arch != ("x86" if arch == ARCH_X86 else "arm64"):
        return "", [], None
    have = [p for p in want if p in pmus]
    if not have:
        return "", [], "%s: no libpfm4 PMU (%s)" % (
            subdir, ", ".join(want) if want else "none known")
    layout = LAYOUT_ARM64 if arch == ARCH_ARM64 else \
        LAYOUT_AMD if subdir.startswith("amd") else LAYOUT_INTEL
    by_cfg = {}
    for i, (lname, ev, _) in enumerate(evs):
        cfg = config_of(encoding(ev, arch), layout)
        if cfg is None:
            continue
        # several events of one encoding: the first not deprecated
        old = by_cfg.get(cfg)
        if old is None or (evs[old][1].get("Deprecated") == "1" and
                           ev.get("Deprecated") != "1"):
            by_cfg[cfg] = i
    names = pmus[have[0]]
    out = sorted(((n, by_cfg[c]) for n, c in names if c in by_cfg),
                 key=lambda a: (a[0].lower(), a[1]))
    return ",".join(have), out, "%s (%s): %d of %d libpfm4 names" % (
        subdir, have[0], len(out), len(names))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def is_event(ev, units=CORE_UNITS):
    return isinstance(ev, dict) and "MetricExpr" not in ev and \
        "MetricName" not in ev and ev.get("Unit") in units


class Pool:
    def __init__(self):
        self.off = {}
        self.parts = []
        self.size = 0

    def add(self, s):
        if s not in self.off:
            self.off[s] = self.size
            self.parts.append(s)
            self.size += len(s.encode("utf-8")) + 1
        return self.off[s]


def arm64_std(archdir):
    """arm64's architecture-standard events, by lower-case name."""
    std = {}
    top = os.path.join(archdir, "arm64")
    for name in sorted(os.listdir(top)):
        if not name.endswith(".json"):
            continue
        for ev in load(os.path.join(top, name)):
            if is_event(ev) and "EventName" in ev:
                std.setdefault(ev["EventName"].lower(), ev)
    return std


def model_events(archdir, arch, subdir, std, units=CORE_UNITS):
    """The events of units in one model directory: [(name, ev, topic)]."""
    d = os.path.join(archdir, "x86" if arch == ARCH_X86 else "arm64", subdir)
    out = {}
    for name in sorted(os.listdir(d)):
        if not name.endswith(".json") or "metric" in name:
            continue
        topic = name[:-5].replace("-", " ")     # perf's jevents get_topic()
        for ev in load(os.path.join(d, name)):
            if not is_event(ev, units):
                continue
            if "ArchStdEvent" in ev:
                base = std.get(ev["ArchStdEvent"].lower())
                if base is None:
                    sys.exit("%s: unknown ArchStdEvent %s" %
                             (os.path.join(d, name), ev["ArchStdEvent"]))
                merged = dict(base)
                for k, v in ev.items():
                    # the encoding is the standard event's
                    if k not in ("EventCode", "ConfigCode", "ExtSel"):
                        merged[k] = v
                merged.setdefault("EventName", base["EventName"])
                ev = merged
            if "EventName" not in ev:
                continue
            lname = ev["EventName"].lower()
            if lname not in out:
                out[lname] = (ev, topic)
    return [(n, out[n][0], out[n][1]) for n in sorted(out)]


def mapfile(archdir, arch):
    path = os.path.join(archdir, "x86" if arch == ARCH_X86 else "arm64",
                        "mapfile.csv")
    rows = []
    with open(path, encoding="utf-8") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#") or row[0] == "Family-model":
                continue
            if len(row) < 4 or row[3].strip() != "core":
                continue
            rows.append((row[0].strip(), row[2].strip()))
    return rows


def cstr(s):
    out = []
    for ch in s.encode("utf-8"):
        c = chr(ch)
        if c in '"\\':
            out.append("\\" + c)
        elif 32 <= ch < 127 and c != "?":
            out.append(c)
        else:
            out.append("\\%03o" % ch)
    return "".join(out)


def arm64_std_metrics(archdir):
    """arm64's architecture-standard metrics, by lower-case name."""
    std = {}
    top = os.path.join(archdir, "arm64")
    for name in sorted(os.listdir(top)):
        if not name.endswith(".json"):
            continue
        for m in load(os.path.join(top, name)):
            if isinstance(m, dict) and "MetricName" in m:
                std.setdefault(m["MetricName"].lower(), m)
    return std


SYMBOL = re.compile(r"(?:\\[-,=]|[0-9a-zA-Z_.:@?#])+")
KEYWORDS = ("if", "else", "min", "max", "d_ratio", "duration_time")


def resolves(expr, names):
    """Does every event of expr name one of names (lower case)?"""
    for tok in SYMBOL.findall(expr):
        t = tok.lower()
        if t[0].isdigit() or t[0] == "#" or t in KEYWORDS or t in names:
            continue
        return False
    return True


def parse_unit(su):
    """ScaleUnit "100%" -> (100.0, "%"); "1per cycle" -> (1.0, "per cycle")."""
    m = re.match(r"\s*([0-9.]+(?:e[-+]?[0-9]+)?)\s*(.*)$", su or "")
    if not m:
        return 1.0, (su or "").strip()
    return float(m.group(1)), m.group(2).strip()


def model_metrics(archdir, arch, subdir, std, std_events):
    """The metrics of one model directory: [metric dict], by name."""
    d = os.path.join(archdir, "x86" if arch == ARCH_X86 else "arm64", subdir)
    out = {}
    for name in sorted(os.listdir(d)):
        if not name.endswith(".json"):
            continue
        data = load(os.path.join(d, name))
        if not isinstance(data, list):
            continue        # metricgroups.json: group descriptions
        for m in data:
            if not isinstance(m, dict) or m.get("Unit") not in CORE_UNITS:
                continue
            if "ArchStdEvent" in m and "MetricName" not in m:
                base = std.get(m["ArchStdEvent"].lower())
                if base is None:
                    continue
                merged = dict(base)
                merged.update(m)
                m = merged
            if "MetricName" in m and "MetricExpr" in m:
                out.setdefault(m["MetricName"].lower(), m)
    if arch == ARCH_ARM64:
        names = set(n for n, _, _ in model_events(archdir, arch, subdir,
                                                   std_events))
        for lname, m in sorted(std.items()):
            if lname not in out and resolves(m["MetricExpr"], names):
                out[lname] = m
    return [out[n] for n in sorted(out)]


def main_metrics(archdir, outpath):
    pool = Pool()
    pool.add("")
    std = arm64_std_metrics(archdir)
    std_events = arm64_std(archdir)
    metrics = []        # (name, expr, groups, unit, desc, scale)
    tables = []         # (model, first, count)
    seen = set()
    for arch in (ARCH_X86, ARCH_ARM64):
        for _, subdir in mapfile(archdir, arch):
            if subdir in seen:
                continue
            seen.add(subdir)
            first = len(metrics)
            for m in model_metrics(archdir, arch, subdir, std, std_events):
                groups = [g for g in (m.get("MetricGroup") or "").split(";")
                          if g]
                dflt = m.get("DefaultMetricgroupName")
                if dflt and dflt not in groups:
                    groups.append(dflt)
                scale, unit = parse_unit(m.get("ScaleUnit"))
                desc = m.get("BriefDescription") or ""
                metrics.append((pool.add(m["MetricName"]),
                                pool.add(" ".join(m["MetricExpr"].split())),
                                pool.add(";".join(groups)), pool.add(unit),
                                pool.add(" ".join(desc.split())), scale))
            if len(metrics) > first:
                tables.append((pool.add(subdir), first, len(metrics) - first))
    with open(outpath + ".tmp", "w", encoding="utf-8") as f:
        f.write("/* SPDX-License-Identifier: BSD-2-Clause */\n"
                "/* Generated by libhwpmc/gen_pmu_events.py --metrics from "
                "the kernel's pmu-events JSON; do not edit. */\n"
                "#include \"pmu_metrics.h\"\n\n")
        f.write("const char hwpmc_pm_pool[%d] =\n" % pool.size)
        for s in pool.parts:
            f.write('\t"%s\\0"\n' % cstr(s))
        f.write(";\n\nconst struct hwpmc_pm_metric hwpmc_pm_metrics[%d] = {\n"
                % max(len(metrics), 1))
        for m in metrics:
            f.write("\t{ %d, %d, %d, %d, %d, %r },\n" % m)
        if not metrics:
            f.write("\t{ 0, 0, 0, 0, 0, 0 },\n")
        f.write("};\n\nconst struct hwpmc_pm_table hwpmc_pm_tables[%d] = {\n"
                % max(len(tables), 1))
        for t in tables:
            f.write("\t{ %d, %d, %d },\n" % t)
        if not tables:
            f.write("\t{ 0, 0, 0 },\n")
        f.write("};\n\nconst unsigned int hwpmc_pm_ntables = %d;\n"
                % len(tables))
    os.replace(outpath + ".tmp", outpath)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--metrics":
        main_metrics(sys.argv[2], sys.argv[3])
        return
    pfm = (None, {})
    if len(sys.argv) == 5 and sys.argv[1] == "--pfm":
        pfm = load_pfm(sys.argv[2])
        del sys.argv[1:3]
    if len(sys.argv) != 3:
        sys.exit("usage: gen_pmu_events.py [--metrics | --pfm PFM.tsv] "
                 "ARCHDIR OUT.c")
    archdir, outpath = sys.argv[1], sys.argv[2]
    pool = Pool()
    pool.add("")
    std = arm64_std(archdir)
    events = {}		# (name, enc, desc, topic, period, flags, ldesc) -> index
    tables = []		# (name, arch, first, count, atom, pfm, afirst, acount)
    index = []
    aliases = []	# (name, position in its table)
    reports = []	# libpfm4 aliases per model, for OUT.c's comment
    table_of = {}
    maps = []

    def add_table(name, arch, evs, pfm_ok=True):
        """Events evs as table name: (name, arch, first, count, atom, pfm,
        afirst, acount)."""
        first = len(index)
        pmus, al, report = pfm_aliases(name, arch, evs, pfm) if pfm_ok \
            else ("", [], None)
        if report:
            reports.append(report)
        afirst = len(aliases)
        aliases.extend((pool.add(n), i) for n, i in al)
        for lname, ev, topic in evs:
            desc = (ev.get("BriefDescription") or
                    ev.get("PublicDescription") or "").strip()
            # perf list -v's: kept only where it says more
            ldesc = " ".join((ev.get("PublicDescription") or "").split())
            if ldesc == " ".join(desc.split()):
                ldesc = ""
            flags = 0
            if ev.get("Deprecated") == "1":
                flags |= FLAG_DEPRECATED
            if num(ev.get("PEBS", "0")) > 0:
                flags |= FLAG_PRECISE
            period = num(ev.get("SampleAfterValue", "0"))
            rec = (pool.add(lname), pool.add(encoding(ev, arch)),
                   pool.add(desc), pool.add(topic),
                   min(period, 0xffffffff), flags, pool.add(ldesc))
            if rec not in events:
                events[rec] = len(events)
            index.append(events[rec])
        tables.append((pool.add(name), arch, first, len(index) - first, 0,
                       pool.add(pmus), afirst, len(aliases) - afirst))

    for arch in (ARCH_X86, ARCH_ARM64):
        for cpuid, subdir in mapfile(archdir, arch):
            key = (arch, subdir)
            if key not in table_of:
                add_table(subdir, arch, model_events(archdir, arch, subdir,
                                                     std))
                table_of[key] = len(tables) - 1
                # hybrid: the E-cores' events, the table after the core's
                atom = model_events(archdir, arch, subdir, std, ATOM_UNITS)
                if atom:
                    add_table(subdir + "/cpu_atom", arch, atom, False)
                    t = tables[table_of[key]]
                    tables[table_of[key]] = t[:4] + (len(tables),) + t[5:]
            maps.append((pool.add(cpuid), table_of[key]))

    if pfm[0]:
        sys.stderr.write("gen_pmu_events: libpfm4 aliases: %d names of %d "
                         "tables (per table: %s)\n" % (
                             len(aliases), sum(1 for t in tables if t[7]),
                             outpath))
    if len(events) > 0xffff:
        sys.exit("too many distinct events for a 16-bit index")
    with open(outpath + ".tmp", "w", encoding="utf-8") as f:
        f.write("/* SPDX-License-Identifier: BSD-2-Clause */\n"
                "/* Generated by libhwpmc/gen_pmu_events.py from the "
                "kernel's pmu-events JSON; do not edit. */\n"
                "#include \"pmu_events.h\"\n\n")
        if reports:
            f.write("/*\n * libpfm4 aliases (gen_pfm_events, decision 32), per "
                    "table:\n")
            for r in reports:
                f.write(" *   %s\n" % r)
            f.write(" */\n\n")
        f.write("const char hwpmc_pe_pool[%d] =\n" % pool.size)
        for s in pool.parts:
            f.write('\t"%s\\0"\n' % cstr(s))
        f.write(";\n\nconst struct hwpmc_pe_event hwpmc_pe_events[%d] = {\n"
                % len(events))
        for rec in sorted(events, key=events.get):
            f.write("\t{ %d, %d, %d, %d, %d, %d, %d },\n" % rec)
        f.write("};\n\nconst uint16_t hwpmc_pe_index[%d] = {\n" % len(index))
        for i in range(0, len(index), 12):
            f.write("\t" + " ".join("%d," % x for x in index[i:i + 12]) +
                    "\n")
        f.write("};\n\nconst struct hwpmc_pe_table hwpmc_pe_tables[%d] = {\n"
                % len(tables))
        for t in tables:
            f.write("\t{ %d, %d, %d, %d, %d, %d, %d, %d },\n" % t)
        f.write("};\n\nconst struct hwpmc_pe_alias hwpmc_pe_aliases[%d] = {\n"
                % max(len(aliases), 1))
        for a in aliases or [(0, 0)]:
            f.write("\t{ %d, %d },\n" % a)
        f.write("};\n\nconst struct hwpmc_pe_map hwpmc_pe_maps[%d] = {\n"
                % len(maps))
        for m in maps:
            f.write("\t{ %d, %d },\n" % m)
        f.write("};\n\nconst unsigned int hwpmc_pe_nmaps = %d;\n" % len(maps))
        f.write("const unsigned int hwpmc_pe_ntables = %d;\n" % len(tables))
    os.replace(outpath + ".tmp", outpath)


main()
