def rotate(text, key):
    result = ""
    for char in text.lower():
        if "a" <= char <= "z":
            result += chr((ord(char) - ord("a") + key) % 26 + ord("a"))
        else:
            result += char
    return result
