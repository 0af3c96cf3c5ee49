"""The JMS value model and the dialects' rules: types, Java numbers, LIKE, and `lowering`,
where every evaluation-time rule of a dialect is decided once."""
