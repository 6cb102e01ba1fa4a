def rotate(text, key):
    result = []
    for char in text:
        if char.isascii() and char.isalpha():
            result.append(chr(ord(char) + key))
        else:
            result.append(char)
    return "".join(result)
