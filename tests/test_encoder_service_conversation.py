"""Embedding and reranking jobs in the conversation (reading/encoder_job.py, assistant/encoder_reply.py,
tools/encoder_plan.py): the job read from its words in either language, the encoder assumed when none is named,
the rate, candidates per query and tokens per text read, and the answer sized by the tokens read per second with
the GPUs, the card, the rent and the pooling command; a corpus by a deadline stays a batch job on an encoder."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.encoder_plan import EncoderPlanInput, encoder_plan
from gpu_advisor.tools.encoder_serving import EncoderServingInput, encoder_serving
from tests.conversation import payload, run_conversation

RERANK_EN = ["reranker {rate} QPS each with {n} candidates", "rerank top-{n} passages for {rate} qps",
             "we need a reranking service: {rate} queries per second, {n} candidates per query",
             "cross-encoder reranking at {rate} QPS, {n} candidate docs per query"]
RERANK_ZH = ["重排服务，每秒{rate}个查询，每个查询{n}个候选文档", "精排服务每秒{rate}个查询，每个查询{n}个候选",
             "做重排，每秒{rate}个请求，每个请求{n}个候选段落"]
EMBED_EN = ["embedding service for our search, {rate} requests per second", "embed {rate} docs/s for retrieval",
            "an embedding API at {rate} QPS for RAG"]
EMBED_ZH = ["召回用的embedding服务，每秒{rate}个请求", "向量化服务，每秒{rate}个请求", "做知识库检索的向量服务，每秒{rate}个请求"]


@pytest.mark.parametrize(("text", "rate", "n"), [
    (t.format(rate=rate, n=n), rate, n) for t, (rate, n) in itertools.product(RERANK_EN + RERANK_ZH, [(200, 50), (30, 100)])])
def test_a_reranking_service_reads_its_rate_and_candidates(text, rate, n):
    u = understand(text).updates
    assert u.get("encoder_job") == "rerank" and u.get("phase") == "serve"
    assert u.get("requests_per_s") == rate and u.get("candidates_per_query") == n
    assert not u.get("users") and not u.get("batch_items")  # the candidates are no headcount, no corpus


@pytest.mark.parametrize("text", [t.format(rate=500) for t in EMBED_EN + EMBED_ZH])
def test_an_embedding_service_reads_its_rate(text):
    u = understand(text).updates
    assert u.get("encoder_job") == "embed" and u.get("phase") == "serve" and u.get("requests_per_s") == 500


@pytest.mark.parametrize("text", ["we embed llama in our app for 20 users", "serve llama 3.1 8b and embed a chat widget",
                                  "summarise 1M docs with qwen2.5 7b and embed the summaries"])
def test_embedding_a_model_in_an_app_or_beside_a_generator_is_no_encoder_job(text):
    assert understand(text).updates.get("encoder_job") is None


@pytest.mark.parametrize(("text", "model"), [("rerank with qwen3-reranker-4b at 20 qps", "qwen3-reranker-4b"),
                                             ("serve Qwen3-Embedding-8B for retrieval, 100 requests per second",
                                              "qwen3-embedding-8b")])
def test_a_named_encoder_says_the_job_and_is_kept(text, model):
    u = understand(text).updates
    assert u.get("model") == model and u.get("encoder_job") == ("rerank" if "rerank" in model else "embed")


def _plan(reply):
    return payload(reply)["results"]["encoder_plan"]


@pytest.mark.parametrize("text", ["reranker 200 QPS each with 50 candidates", "重排服务，每秒200个查询，每个查询50个候选文档"])
def test_a_reranker_is_answered_at_once_with_the_default_reranker_sized_by_the_tokens_it_reads(text):
    replies = run_conversation([text])
    assert len(replies) == 1 and payload(replies[0])["kind"] == "answer"  # no job, model or busy question first
    plan = _plan(replies[0])
    best = plan["best"]["sized"]
    assert best["model_id"] == "bge-reranker-v2-m3" and best["reranker"] and best["pairs_per_s"] == 10_000
    assert best["tokens_per_s_needed"] == 200 * 50 * (512 + 32)
    expected = encoder_serving(EncoderServingInput(model="bge-reranker-v2-m3", gpu=plan["best"]["gpu_id"],
                                                   requests_per_s=200, inputs_per_request=50))
    assert best["gpus"] == expected.gpus and plan["best"]["gpus"] == expected.gpus
    content = replies[0].content
    assert f"{expected.tokens_per_s_needed:,.0f}" in content and "--convert classify" in content
    assert "BAAI/bge-reranker-v2-m3" in content and "text-embeddings-router" in content
    assert "8B" not in content.split("\n")[0]


@pytest.mark.parametrize(("text", "tokens"), [("rerank 50 candidates of 300 tokens per query at 200 qps", 300),
                                              ("重排服务，每秒200个查询，每个查询50个候选，每个候选300个token", 300)])
def test_the_candidates_length_said_sizes_it(text, tokens):
    best = _plan(run_conversation([text])[-1])["best"]["sized"]
    assert best["tokens_per_input"] == tokens + 32 and best["tokens_per_s_needed"] == 200 * 50 * (tokens + 32)


@pytest.mark.parametrize("lang_text", ["embedding service for our RAG, we have 4 L40S", "向量化服务给知识库用，我们有4张L40S"])
def test_own_cards_come_first_and_cost_no_rent(lang_text):
    reply = run_conversation([lang_text])[-1]
    plan = _plan(reply)
    assert plan["best"]["owned"] == 4 and plan["best"]["gpu_id"] == "l40s" and plan["best"]["usd_per_hour"] is None
    assert payload(reply)["decision"]["action"] == "use" and payload(reply)["decision"]["gpus"] == 1


@pytest.mark.parametrize(("text", "said"), [("embedding service, 500 requests per second, we have two 4090s", "too few"),
                                            ("召回用的embedding服务，每秒500个请求，我们有两张4090", "撑不住")])
def test_too_few_own_cards_are_said_before_the_rented_plan(text, said):
    reply = run_conversation([text])[-1]
    plan = _plan(reply)
    own = next(o for o in plan["options"] if o["owned"])
    assert own["gpu_id"] == "rtx-4090" and not own["enough"] and own["gpus"] == 5
    assert said in reply.content.split("**")[0] + reply.content.split("\n\n")[1]
    assert not plan["best"]["owned"]


def test_rented_options_are_ranked_by_the_hour_and_priced_from_the_snapshots():
    plan = encoder_plan(EncoderPlanInput(model="bge-m3", requests_per_s=500))
    rented = [o for o in plan.options if not o.owned]
    assert rented and all(o.usd_per_hour == pytest.approx(o.gpus * (o.usd_per_gpu_hour or 0)) for o in rented)
    assert all(o.usd_per_month == pytest.approx(o.usd_per_hour * 730) for o in rented if o.usd_per_hour)
    assert plan.best is rented[0] or plan.best == rented[0]


@pytest.mark.parametrize(("text", "lang"), [("embed 10M documents of 500 tokens by Friday", "en"),
                                            ("向量化1000万条文本，每条500个token，周五前完成", "zh")])
def test_a_corpus_by_a_deadline_is_a_batch_job_on_the_default_embedding_model_not_a_chat_model(text, lang):
    replies = run_conversation([text])
    assert len(replies) == 1, "the model is assumed (BGE-M3), not asked with 8B/14B quick replies"
    p = payload(replies[0])
    assert p["profile"]["model"] == "bge-m3" and p["decision"]["model"] == "bge-m3"
    assert p["profile"]["batch_input_tokens"] == 500 and "--convert embed" in replies[0].content
    assert ("BGE-M3, a common multilingual embedding model" if lang == "en" else "BGE-M3，常用的多语言向量模型") \
        in replies[0].content
