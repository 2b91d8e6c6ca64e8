"""A plan you can launch (issue 22 item 5): the command that starts a plan, for each engine, parsed against the
engine's argument names of the version assumed (knowledge/data/engine_flags.yaml); its parallel sizes equal the
plan's; llama.cpp's offload flags equal the offload plan's; the conversation answers "how do I start it?" in
English and Chinese; the CLI prints it (`recommend --launch`, `launch`); bad input gets one line, exit 2."""

from __future__ import annotations

from functools import cache

import pytest

from gpu_advisor.knowledge.engine_flags import engine_flags
from gpu_advisor.tools.launch import (
    ENGINES,
    LaunchCommand,
    LaunchError,
    check_flags,
    launch_command,
    launch_for,
)
from gpu_advisor.tools.recommend import Recommendation, Workload, recommend
from gpu_advisor.tui.cli.program import main
from tests.conversation import payload, run_conversation

# (label, workload): a replica plan over servers, tensor x pipeline parallel over two servers, a MoE model with
# expert parallel over two servers, a single server's tensor parallel, one person's own card
PLANS = {
    "replicas": dict(model="llama-3.1-8b", phase="serve", users=5000, max_gpus=64),
    "tp_pp": dict(model="llama-3.1-405b", phase="serve", serve_precision="bf16", users=20, owned=["16x h100-sxm"],
                  server_gpus=8),
    "moe_ep": dict(model="deepseek-v3", phase="serve", users=50, owned=["16x a800-80gb-sxm"], server_gpus=8),
    "one_server": dict(model="llama-3.1-70b", phase="serve", users=50),
    "own_card": dict(model="qwen2.5-7b", phase="serve", users=2, owned=["1x rtx-4090"], engine="llama.cpp"),
}
OFFLOAD = dict(model="gpt-oss-120b", phase="serve", users=1, owned=["1x rtx-4090"], system_ram_gb=128, personal=True)


@cache
def plan(label: str) -> Recommendation:
    return recommend(Workload(**(OFFLOAD if label == "offload" else PLANS[label])))


def parse(cmd: LaunchCommand) -> dict[str, str | bool]:
    """The command's flags as the engine's parser reads them: every token after the program is a flag the version
    lists, a value after one, or a positional the version takes (vllm serve MODEL). Asserts on what it cannot read."""
    flags = engine_flags()[cmd.engine]
    assert cmd.argv[: len(flags.program)] == flags.program
    rest, out, positional = cmd.argv[len(flags.program):], {}, list(flags.positional)
    i = 0
    while i < len(rest):
        tok = rest[i]
        if not tok.startswith("-"):
            assert positional, f"{cmd.engine}: unexpected value {tok!r} in {cmd.shell}"
            out[positional.pop(0)] = tok
            i += 1
            continue
        assert flags.accepts(tok), f"{cmd.engine} {flags.version} has no flag {tok} ({cmd.shell})"
        value = rest[i + 1] if i + 1 < len(rest) and not rest[i + 1].startswith("-") else True
        if tok in flags.values:
            assert value in flags.values[tok], f"{tok} {value} not among {flags.values[tok]}"
        out[tok] = value
        i += 1 if value is True else 2
    return out


@pytest.mark.parametrize("label", list(PLANS))
def test_vllm_command_flags_exist_and_match_the_plan(label):
    r = plan(label)
    best = r.best
    cmd = launch_for(r, "vllm")
    got = parse(cmd)
    assert check_flags(cmd) == []
    assert got["model"]
    assert int(got["--tensor-parallel-size"]) == cmd.tp == (best.tp or best.gpus // (best.replicas * best.pp))
    assert int(got.get("--pipeline-parallel-size", 1)) == best.pp
    dp = int(got.get("--data-parallel-size", 1))
    assert dp * (best.servers or 1 if best.pp == 1 else best.replicas) == best.replicas
    assert ("--enable-expert-parallel" in got) == best.expert_parallel
    assert int(got["--max-model-len"]) == r.workload.context
    if best.pp > 1:  # a copy over servers: a Ray cluster, as vLLM's multi-node docs start it
        assert got["--distributed-executor-backend"] == "ray" and [c[:2] for c in cmd.setup] == [["ray", "start"]] * 2


@pytest.mark.parametrize("label", list(PLANS))
def test_sglang_command_flags_exist_and_match_the_plan(label):
    r = plan(label)
    best = r.best
    cmd = launch_for(r, "sglang")
    got = parse(cmd)
    assert int(got["--tp-size"]) == (best.tp or best.gpus // (best.replicas * best.pp))
    assert int(got.get("--pp-size", 1)) == best.pp
    assert int(got.get("--nnodes", 1)) == best.pp
    if best.pp == 1:
        assert int(got.get("--dp-size", 1)) * (best.servers or 1) == best.replicas
    assert ("--ep-size" in got) == best.expert_parallel
    assert int(got["--context-length"]) == r.workload.context
    assert 0 < float(got["--mem-fraction-static"]) < 1


@pytest.mark.parametrize("label", list(PLANS))
def test_llamacpp_command_flags_exist(label):
    r = plan(label)
    cmd = launch_for(r, "llama.cpp")
    got = parse(cmd)
    assert str(got["-m"]).endswith(".gguf")
    slots = int(got["-np"])
    assert int(got["-c"]) == r.workload.context * slots  # -c is every slot's context together
    assert "--n-cpu-moe" not in got  # all on the cards: no offload asked


def test_llamacpp_offload_plan_gives_its_layers_and_experts():
    r = plan("offload")
    assert r.offload_leads and r.offload is not None and r.offload.mode == "experts"
    cmd = launch_for(r)
    got = parse(cmd)
    assert cmd.engine == "llama.cpp" and cmd.model_id == r.offload.model_id
    assert int(got["--n-cpu-moe"]) == r.offload.cpu_moe_layers
    assert int(got["-ngl"]) > r.offload.layers  # every layer's attention on the card, the output layer too
    assert any(n.code == "offload" for n in cmd.notes)


@pytest.mark.parametrize("label", list(PLANS))
def test_mlx_command_flags_exist(label):
    cmd = launch_for(plan(label), "mlx-lm")
    got = parse(cmd)
    assert got["--model"]


def test_every_engine_is_in_the_flag_file_with_its_source():
    records = engine_flags()
    assert set(ENGINES) <= set(records)
    for r in records.values():
        assert r.repository in r.source and r.path in r.source and r.version


def test_quantised_plan_names_no_made_up_repository():
    cmd = launch_for(plan("one_server"), "vllm")  # Llama 3.1 70B in int8: no INT8 repository on record
    assert cmd.checkpoint_format and cmd.argv[2].startswith("./")
    assert any(n.code == "checkpoint" for n in cmd.notes)
    native = launch_for(plan("moe_ep"), "vllm")  # DeepSeek-V3 ships FP8: its own repository, no --quantization
    assert native.argv[2] == "deepseek-ai/DeepSeek-V3" and "--quantization" not in native.argv


def test_the_same_plan_gives_the_same_command():
    assert launch_for(plan("tp_pp")).argv == launch_for(recommend(Workload(**PLANS["tp_pp"]))).argv


def test_a_training_plan_has_no_command():
    r = recommend(Workload(model="llama-3.1-8b", phase="fine-tune"))
    with pytest.raises(LaunchError):
        launch_command(r.best, r.workload)
    with pytest.raises(LaunchError):
        launch_for(plan("one_server"), "ollama")


# ---------------------------------------------------------------- the conversation

PLAN_EN = "serve llama 3.1 70b to 50 users around the clock"
PLAN_ZH = "部署 Llama 3.1 70B 给 50 个人用，全天候"
ASK_EN = ["how do I start it?", "how do we launch this", "what's the launch command?", "give me the command to run it",
          "ok, how do I actually run it?", "show me the startup command please"]
ASK_ZH = ["怎么启动", "启动命令是什么", "这个怎么跑起来？", "给我启动命令", "部署命令发一下", "那怎么把它启动"]
ENGINE_ASKS = [("give me the vllm command", "vllm"), ("what's the sglang command?", "sglang"),
               ("给我sglang的启动命令", "sglang"), ("vllm 命令怎么写", "vllm"), ("llama.cpp的启动参数呢", "llama.cpp")]


def _launched(plan_text: str, ask: str):
    first, reply = run_conversation([plan_text, ask])
    return payload(first), payload(reply), reply.content


@pytest.mark.parametrize(("plan_text", "ask", "lang"), [(PLAN_EN, a, "en") for a in ASK_EN]
                         + [(PLAN_ZH, a, "zh") for a in ASK_ZH])
def test_start_it_asked_gives_the_plans_command(plan_text, ask, lang):
    first, data, text = _launched(plan_text, ask)
    best = first["results"]["recommend"]["best"]
    assert data["kind"] == "info" and data["topic"] == "launch", text
    launch = data["results"]["launch"]
    assert launch["engine"] == best["engine"] and "```bash" in text
    tp = launch["argv"][launch["argv"].index("--tensor-parallel-size") + 1]
    assert int(tp) == (best["tp"] or best["gpus"] // best["replicas"])
    assert (any("\u4e00" <= ch <= "\u9fff" for ch in text)) == (lang == "zh")


@pytest.mark.parametrize(("ask", "engine"), ENGINE_ASKS)
def test_an_engine_named_gives_that_engines_command_for_the_same_plan(ask, engine):
    plan_text = PLAN_ZH if any("\u4e00" <= ch <= "\u9fff" for ch in ask) else PLAN_EN
    _first, data, text = _launched(plan_text, ask)
    assert data["topic"] == "launch", text
    assert data["results"]["launch"]["engine"] == engine
    assert engine_flags()[engine].program[0] in text


@pytest.mark.parametrize(("ask", "lang"), [("how do I start it?", "en"), ("give me the vllm command", "en"),
                                           ("怎么启动", "zh"), ("启动命令是什么", "zh")])
def test_with_no_plan_yet_a_polite_line_says_to_size_one(ask, lang):
    reply = run_conversation([ask])[-1]
    data = payload(reply)
    assert data["kind"] == "info" and data["results"]["launch"] == {"plan": False}
    assert "```" not in reply.content
    assert (any("\u4e00" <= ch <= "\u9fff" for ch in reply.content)) == (lang == "zh")


@pytest.mark.parametrize("text", [PLAN_EN, PLAN_ZH, "我们有2台8卡A800服务器，部署DeepSeek-V3 FP8给50个人用"])
def test_a_serving_answer_ends_with_its_start_block(text):
    reply = run_conversation([text])[-1]
    content = reply.content
    head = "**启动**" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "**Start it**"
    assert head in content and content.index(head) > content.index("|")  # after the table, at the end
    block = content[content.index(head):].split("```")[1]
    assert "--tensor-parallel-size" in block


def test_a_sizing_question_with_run_in_it_stays_a_sizing():
    data = payload(run_conversation(["how do I run llama 3.1 70b on two 4090s for 5 users"])[-1])
    assert data.get("topic") != "launch"


# ---------------------------------------------------------------- the command line


def test_cli_recommend_launch_prints_the_command_after_the_plan(capsys):
    assert main(["recommend", "-m", "llama-3.1-405b", "--phase", "serve", "-p", "bf16", "--users", "20",
                 "--owned", "16x h100-sxm", "--server-gpus", "8", "--launch"]) == 0
    out = capsys.readouterr().out
    assert out.index("Recommendation:") < out.index("Start it (vLLM")
    line = next(x for x in out.splitlines() if x.strip().startswith("vllm serve"))
    assert "--tensor-parallel-size 8 --pipeline-parallel-size 2" in line


def test_cli_launch_prints_only_the_command(capsys):
    assert main(["launch", "-m", "llama-3.1-70b", "--phase", "serve", "--users", "50"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("vllm serve ") and "--tensor-parallel-size" in out[0]
    assert main(["launch", "-m", "llama-3.1-70b", "--phase", "serve", "--users", "50", "--engine", "sglang"]) == 0
    assert capsys.readouterr().out.startswith("python -m sglang.launch_server ")


def test_cli_launch_json_is_the_typed_result(capsys):
    import json

    assert main(["launch", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "5000", "--max-gpus", "64",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["engine"] == "vllm" and data["servers"] > 1 and data["notes"][0]["code"] == "each_server"


@pytest.mark.parametrize("argv", [["launch", "-m", "llama-3.1-8b", "--phase", "fine-tune"],
                                  ["launch", "-m", "llama-3.1-8b", "--phase", "serve", "--engine", "ollama"],
                                  ["launch", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "0"]])
def test_cli_bad_input_is_one_line_and_exit_2(argv, capsys):
    try:
        status = main(argv)
    except SystemExit as e:  # argparse's own refusal
        status = e.code
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err


# ---------------------------------------------------------------- a Kubernetes manifest


@pytest.mark.parametrize(("label", "kind"), [("replicas", "Deployment"), ("tp_pp", "LeaderWorkerSet"),
                                             ("one_server", "Deployment")])
def test_kubernetes_manifest_holds_the_plans_command_and_gpus(label, kind):
    import yaml

    from gpu_advisor.tools.launch import kubernetes_manifest

    r = plan(label)
    cmd = launch_for(r)
    docs = list(yaml.safe_load_all(kubernetes_manifest(cmd, r.best)))
    assert docs[0]["kind"] == kind and docs[1]["kind"] == "Service"
    if kind == "Deployment":
        pod = docs[0]["spec"]["template"]["spec"]["containers"][0]
        assert pod["command"] == cmd.argv and docs[0]["spec"]["replicas"] == max(1, cmd.servers)
    else:
        lws = docs[0]["spec"]["leaderWorkerTemplate"]
        assert lws["size"] == cmd.pp and docs[0]["spec"]["replicas"] == cmd.replicas
        pod = lws["leaderTemplate"]["spec"]["containers"][0]
        assert cmd.shell in pod["command"][-1]
    limits = pod["resources"]["limits"]
    assert sum(limits.values()) * (cmd.servers if cmd.pp == 1 else cmd.pp * cmd.replicas) == r.best.gpus


@pytest.mark.parametrize(("ask", "lang"), [("give me a k8s yaml", "en"), ("can you write the kubernetes manifest?", "en"),
                                           ("kubernetes部署文件", "zh"), ("给我k8s的yaml", "zh")])
def test_kubernetes_manifest_asked_in_the_conversation(ask, lang):
    plan_text = PLAN_ZH if lang == "zh" else PLAN_EN
    _first, data, text = _launched(plan_text, ask)
    assert data["topic"] == "launch" and "```yaml" in text and "kind: Deployment" in text, text
    assert (any("\u4e00" <= ch <= "\u9fff" for ch in text)) == (lang == "zh")


def test_cli_recommend_launch_on_a_training_plan_says_there_is_no_command(capsys):
    assert main(["recommend", "-m", "llama-3.1-8b", "--phase", "fine-tune", "--launch"]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("No command to start it:")
