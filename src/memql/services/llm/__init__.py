"""LLM clients: memql's LLM port over OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp
server, DeepSeek, Qwen). With none configured memql uses its offline text services (memql.services)."""

from memql.services.llm.openai_chat import LLMConfigError, LLMError, OpenAIChat, llm_from_env

__all__ = ["LLMConfigError", "LLMError", "OpenAIChat", "llm_from_env"]
