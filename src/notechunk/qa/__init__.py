"""QA: typed metrics (`metrics`), self-retrieval scores (`retrievability`), the HTML report
rendered in memory (`report`), and the writer of every output file (`artifacts`)."""
