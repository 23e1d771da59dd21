#!/usr/bin/env python3
"""Writes the machine fixtures of tests/data/machines/: each a directory laid out like a Linux root
(sys/devices/system/cpu/..., proc/cpuinfo, proc/meminfo) for one real kind of machine. The facts (model
numbers, flag lists, cache sizes and sharing, memory) are public; see README.md next to this script. Run it from
this directory; it rewrites every fixture. Nothing here is copied from another machine's files."""

import os
import shutil

BASE = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2")
INTEL_VM = BASE + (" ss ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid"
                   " tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt"
                   " tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch")
AVX512_INTEL = (" avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl"
                " xsaveopt xsavec xgetbv1 xsaves")
AMD_ZEN4_VM = BASE + (" ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid"
                      " extd_apicid aperfmperf tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2"
                      " x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm"
                      " sse4a misalignsse 3dnowprefetch topoext perfctr_core invpcid_single ssbd ibrs ibpb stibp"
                      " vmmcall fsgsbase bmi1 avx2 smep bmi2 invpcid avx512f avx512dq rdseed adx smap avx512ifma"
                      " clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx512_bf16"
                      " clzero xsaveerptr rdpru wbnoinvd arat avx512vbmi pku ospke avx512_vbmi2 gfni vaes vpclmulqdq"
                      " avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid flush_l1d")


def intel_amx_flags():
    return (INTEL_VM + " cpuid_fault fsgsbase tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm" + AVX512_INTEL +
            " avx_vnni avx512_bf16 arat avx512vbmi umip avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni"
            " avx512_bitalg avx512_vpopcntdq rdpid cldemote movdiri movdir64b fsrm serialize tsxldtrk amx_bf16"
            " avx512_fp16 amx_tile amx_int8 arch_capabilities")


def zen5_flags():
    return AMD_ZEN4_VM.replace(" avx512_bf16", " avx_vnni avx512_bf16") + " movdiri movdir64b avx512_vp2intersect"


def zen4_desktop_flags():
    # Bare metal: no hypervisor flag, but SVM and the power-management features a VM hides.
    return (AMD_ZEN4_VM.replace(" hypervisor", "").replace(" tsc_known_freq", "").replace(" vmmcall", "") +
            " svm extapic skinit wdt tce nodeid_msr cpb cat_l3 cdp_l3 hw_pstate sme npt lbrv svm_lock"
            " nrip_save tsc_scale vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload"
            " vgif x2avic v_spec_ctrl vnmi")


def zen3_flags():
    return (BASE + " ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid"
            " extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe"
            " popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse"
            " 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx"
            " cpb cat_l3 cdp_l3 invpcid_single hw_pstate ssbd mba ibrs ibpb stibp vmmcall fsgsbase bmi1 avx2 smep"
            " bmi2 erms invpcid cqm rdt_a rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves"
            " cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin"
            " arat npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid decodeassists pausefilter"
            " pfthreshold v_vmsave_vmload vgif v_spec_ctrl umip pku ospke vaes vpclmulqdq rdpid overflow_recov"
            " succor smca")


def skylake_vm_flags():
    return (INTEL_VM + " fsgsbase tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm mpx rdseed adx smap"
            " clflushopt xsaveopt xsavec xgetbv1 xsaves arat umip md_clear arch_capabilities")


def cascadelake_vm_flags():
    return (INTEL_VM + " fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid mpx" + AVX512_INTEL +
            " ida arat pku ospke avx512_vnni md_clear arch_capabilities")


def haswell_flags():
    return (BASE + " ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc arch_perfmon pebs bts rep_good nopl"
            " xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3"
            " sdbg fma cx16 xtpr pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx"
            " f16c rdrand lahf_lm abm cpuid_fault epb invpcid_single pti ssbd ibrs ibpb stibp tpr_shadow vnmi"
            " flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid xsaveopt dtherm"
            " ida arat pln pts md_clear flush_l1d")


# name -> machine description. caches: (level, type, size in sysfs's text, CPUs sharing one instance as a
# function of the CPU number and the CPU count, giving sysfs's shared_cpu_list of CPU 0).
MACHINES = {
    "intel-xeon-amx-vm-480mib": dict(
        vendor="GenuineIntel", family=6, model=167, stepping=0, name="Intel(R) Xeon(R) Processor", mhz="2600.000",
        cpus=2, threads_per_core=1, flags=intel_amx_flags(), bogomips="5200.00", address="46 bits physical, 57 bits virtual",
        caches=[(1, "Data", "48K", "0"), (1, "Instruction", "64K", "0"), (2, "Unified", "2048K", "0"),
                (3, "Unified", "491520K", "0-1")],
        mem_total_kb=24683520, mem_available_kb=23582720, cpufreq_max_khz=None),
    "amd-zen4-vm": dict(
        vendor="AuthenticAMD", family=25, model=17, stepping=1, name="AMD EPYC 9R14", mhz="2600.000",
        cpus=2, threads_per_core=1, flags=AMD_ZEN4_VM, bogomips="5200.00", address="48 bits physical, 48 bits virtual",
        caches=[(1, "Data", "32K", "0"), (1, "Instruction", "32K", "0"), (2, "Unified", "1024K", "0"),
                (3, "Unified", "32768K", "0-1")],
        mem_total_kb=7947420, mem_available_kb=7112964, cpufreq_max_khz=None),
    "amd-zen5-vm-508mib": dict(
        vendor="AuthenticAMD", family=26, model=2, stepping=1, name="AMD EPYC 9R45", mhz="2600.000",
        cpus=2, threads_per_core=1, flags=zen5_flags(), bogomips="5200.00", address="48 bits physical, 48 bits virtual",
        caches=[(1, "Data", "48K", "0"), (1, "Instruction", "32K", "0"), (2, "Unified", "1024K", "0"),
                (3, "Unified", "520192K", "0-1")],
        mem_total_kb=16012524, mem_available_kb=15204400, cpufreq_max_khz=None),
    "desktop-ryzen7-7700x-32mib": dict(
        vendor="AuthenticAMD", family=25, model=97, stepping=2, name="AMD Ryzen 7 7700X 8-Core Processor",
        mhz="3815.422", cpus=16, threads_per_core=2, flags=zen4_desktop_flags(), bogomips="8983.16",
        address="48 bits physical, 48 bits virtual",
        caches=[(1, "Data", "32K", "0,8"), (1, "Instruction", "32K", "0,8"), (2, "Unified", "1024K", "0,8"),
                (3, "Unified", "32768K", "0-15")],
        mem_total_kb=32010256, mem_available_kb=27331912, cpufreq_max_khz=5573000),
    "kvm-skylake-no-l3": dict(
        vendor="GenuineIntel", family=6, model=94, stepping=3, name="Intel Core Processor (Skylake, IBRS)",
        mhz="2903.998", cpus=4, threads_per_core=1, flags=skylake_vm_flags(), bogomips="5807.99",
        address="40 bits physical, 48 bits virtual",
        caches=[(1, "Data", "32K", "0"), (1, "Instruction", "32K", "0"), (2, "Unified", "4096K", "0")],
        mem_total_kb=4025260, mem_available_kb=3581176, cpufreq_max_khz=None),
    "one-cpu-vm-1gib": dict(
        vendor="GenuineIntel", family=6, model=85, stepping=7, name="Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz",
        mhz="2499.996", cpus=1, threads_per_core=1, flags=cascadelake_vm_flags(), bogomips="4999.99",
        address="46 bits physical, 48 bits virtual",
        caches=[(1, "Data", "32K", "0"), (1, "Instruction", "32K", "0"), (2, "Unified", "1024K", "0"),
                (3, "Unified", "36608K", "0")],
        mem_total_kb=988876, mem_available_kb=712300, cpufreq_max_khz=None),
    "epyc-7543-64cpu": dict(
        vendor="AuthenticAMD", family=25, model=1, stepping=1, name="AMD EPYC 7543 32-Core Processor",
        mhz="2800.000", cpus=64, threads_per_core=2, flags=zen3_flags(), bogomips="5589.73",
        address="48 bits physical, 48 bits virtual",
        caches=[(1, "Data", "32K", "0,32"), (1, "Instruction", "32K", "0,32"), (2, "Unified", "512K", "0,32"),
                (3, "Unified", "32768K", "0-3,32-35")],
        mem_total_kb=263856272, mem_available_kb=257102640, cpufreq_max_khz=2800000),
    "haswell-avx2-desktop": dict(
        vendor="GenuineIntel", family=6, model=60, stepping=3, name="Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz",
        mhz="3399.912", cpus=8, threads_per_core=2, flags=haswell_flags(), bogomips="6784.93",
        address="39 bits physical, 48 bits virtual",
        caches=[(1, "Data", "32K", "0,4"), (1, "Instruction", "32K", "0,4"), (2, "Unified", "256K", "0,4"),
                (3, "Unified", "8192K", "0-7")],
        mem_total_kb=16297064, mem_available_kb=13988356, cpufreq_max_khz=3900000),
}


def cpuinfo(m):
    cores = m["cpus"] // m["threads_per_core"]
    llc_kb = int(m["caches"][-1][2].rstrip("K"))
    cache_size = f"{llc_kb} KB" if m["vendor"] == "GenuineIntel" else "%s KB" % int(m["caches"][2][2].rstrip("K"))
    blocks = []
    for cpu in range(m["cpus"]):
        core = cpu % cores
        lines = [
            ("processor", cpu), ("vendor_id", m["vendor"]), ("cpu family", m["family"]), ("model", m["model"]),
            ("model name", m["name"]), ("stepping", m["stepping"]), ("microcode", "0xffffffff"),
            ("cpu MHz", m["mhz"]), ("cache size", cache_size), ("physical id", 0), ("siblings", m["cpus"]),
            ("core id", core), ("cpu cores", cores), ("apicid", cpu), ("initial apicid", cpu), ("fpu", "yes"),
            ("fpu_exception", "yes"), ("cpuid level", 13 if m["vendor"] == "AuthenticAMD" else 22), ("wp", "yes"),
            ("flags", m["flags"]), ("bugs", "spectre_v1 spectre_v2 spec_store_bypass"), ("bogomips", m["bogomips"]),
            ("clflush size", 64), ("cache_alignment", 64), ("address sizes", m["address"]), ("power management", ""),
        ]
        blocks.append("".join(f"{k}\t: {v}\n" if len(k) >= 8 else f"{k}\t\t: {v}\n" for k, v in lines))
    return "\n".join(blocks) + "\n"


def meminfo(m):
    total, avail = m["mem_total_kb"], m["mem_available_kb"]
    free = avail - total // 50
    rows = [("MemTotal", total), ("MemFree", free), ("MemAvailable", avail), ("Buffers", total // 400),
            ("Cached", total // 40), ("SwapCached", 0), ("Active", total // 30), ("Inactive", total // 35),
            ("SwapTotal", 0), ("SwapFree", 0), ("Dirty", 12), ("AnonPages", total // 60), ("Shmem", total // 900),
            ("HugePages_Total", 0), ("Hugepagesize", 2048)]
    return "".join(f"{k + ':':<16}{v:>8} kB\n" if not k.startswith("HugePages_") else f"{k + ':':<16}{v:>8}\n"
                   for k, v in rows)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    for name, m in MACHINES.items():
        if os.path.isdir(name):
            shutil.rmtree(name)
        cpu = os.path.join(name, "sys/devices/system/cpu")
        last = m["cpus"] - 1
        online = "0" if last == 0 else f"0-{last}"
        for f in ("online", "present", "possible"):
            write(os.path.join(cpu, f), online + "\n")
        for index, (level, kind, size, shared) in enumerate(m["caches"]):
            d = os.path.join(cpu, "cpu0/cache", f"index{index}")
            write(os.path.join(d, "level"), f"{level}\n")
            write(os.path.join(d, "type"), f"{kind}\n")
            write(os.path.join(d, "size"), f"{size}\n")
            write(os.path.join(d, "shared_cpu_list"), f"{shared}\n")
            write(os.path.join(d, "coherency_line_size"), "64\n")
        if m["cpufreq_max_khz"]:
            write(os.path.join(cpu, "cpu0/cpufreq/cpuinfo_max_freq"), f"{m['cpufreq_max_khz']}\n")
            write(os.path.join(cpu, "cpu0/cpufreq/cpuinfo_min_freq"), f"{m['cpufreq_max_khz'] // 4}\n")
        write(os.path.join(name, "proc/cpuinfo"), cpuinfo(m))
        write(os.path.join(name, "proc/meminfo"), meminfo(m))


if __name__ == "__main__":
    main()
