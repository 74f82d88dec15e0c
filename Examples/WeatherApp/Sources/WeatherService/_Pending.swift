// placeholder while this module is written
