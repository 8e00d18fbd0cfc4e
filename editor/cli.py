def main():
    from cardrogue.engine import model
    print("ok", model)
