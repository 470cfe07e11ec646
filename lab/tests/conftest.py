import labtest  # noqa: F401  puts lab/ and scripts/ on the path
