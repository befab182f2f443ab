import ArgumentParser
print("stocktake")
