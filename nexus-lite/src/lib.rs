//! nexus-lite: the local Nexus Code KG API.
