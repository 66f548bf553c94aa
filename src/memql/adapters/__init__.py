"""Adapters: memql's language run against another memory system (one package per system, its framework an
optional extra). An adapter is a shell: memql's engine decides what a program does, the adapter carries
the result into the other system."""
