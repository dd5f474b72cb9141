#!/no/such/python9
print("{}")
